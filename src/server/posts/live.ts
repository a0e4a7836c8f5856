/**
 * The live loader of the `posts` collection (src/live.config.ts): posts come from the Store at
 * request time, so a post the desk publishes is on every page, list, feed and the sitemap at
 * once, with no rebuild; a scheduled post appears when its time comes, because "live" is decided
 * by the time of each read (src/lib/posts.ts). Only live posts ever leave this loader.
 *
 * Entries: id = the post id; `data` = the post without its markdown, plus its date; `rendered`
 * = the body through the one renderer (src/server/posts/render.ts) of a **public** post, for
 * single entries, and for collections only when asked (`html: true`, the feed). A gated post's
 * body leaves this loader only for the full-text page (`fullText: true`), which checks the
 * reader's access itself: every other surface (the article page and the shared caches' copy
 * of it, the feed, lists) cannot show what it never got.
 */
import type { LiveLoader } from 'astro/loaders';
import type { NewsType } from '../../lib/catalog.ts';
import { isLive, postDate, type Post } from '../../lib/posts.ts';
import type { IsoDate } from '../../lib/dates.ts';
import type { PostStore } from '../store/posts.ts';
import { renderPostHtml } from './render.ts';

/** What pages get of a live post. */
export interface PostEntryData extends Omit<Post, 'body'> {
  /** India's calendar day of going live. */
  readonly date: IsoDate;
}

/** A live entry of the collection (Astro's LiveDataEntry, spelled out: astro/loaders does not export it). */
export interface PostEntry {
  readonly id: string;
  readonly data: PostEntryData;
  readonly rendered?: { readonly html: string };
  readonly cacheHint?: { readonly tags?: string[]; readonly lastModified?: Date };
}

/** Filters of getLiveCollection('posts', …). */
export interface PostCollectionFilter {
  readonly type?: NewsType | undefined;
  readonly year?: number | undefined;
  readonly month?: number | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
  /** A reader's search (title, summary, public bodies), newest first. */
  readonly q?: string | undefined;
  /** Render each public entry's body (the feed needs it; lists do not). Gated bodies never. */
  readonly html?: boolean | undefined;
}

/** getLiveEntry('posts', …): by id, or by a current or old slug (`entry.data.slug` is the current one). */
export interface PostEntryFilter {
  readonly id?: string | undefined;
  readonly slug?: string | undefined;
  /** Render a gated post's body too: for /news/{slug}/full only, which decides who reads it. */
  readonly fullText?: boolean | undefined;
}

/** Which bodies an entry carries rendered: none, public posts' only, or any (the full-text page). */
export type BodyShown = 'none' | 'public' | 'any';

export function entryOf(post: Post, bodies: BodyShown): PostEntry {
  const { body, ...rest } = post;
  const withHtml = bodies === 'any' || (bodies === 'public' && post.access === 'public');
  return {
    id: post.id,
    data: { ...rest, date: postDate(post) },
    ...(withHtml ? { rendered: { html: renderPostHtml(body) } } : {}),
    cacheHint: { tags: ['posts', `post:${post.id}`], lastModified: new Date(post.updatedAt) },
  };
}

export interface PostsLoaderOptions {
  readonly store: () => Promise<PostStore>;
  readonly now?: () => Date;
}

export function postsLoader({ store, now = () => new Date() }: PostsLoaderOptions): LiveLoader<PostEntryData, PostEntryFilter, PostCollectionFilter> {
  return {
    name: 'polyindex-posts',

    async loadCollection({ filter = {} }) {
      const db = await store();
      const at = now();
      const posts =
        filter.q !== undefined
          ? await db.searchLivePosts(filter.q, at, filter.limit)
          : await db.livePosts({ type: filter.type, year: filter.year, month: filter.month, limit: filter.limit, offset: filter.offset }, at);
      return { entries: posts.map((post) => entryOf(post, filter.html ? 'public' : 'none')), cacheHint: { tags: ['posts'] } };
    },

    async loadEntry({ filter }) {
      const db = await store();
      let post: Post | null = null;
      if (filter.slug !== undefined) post = (await db.findPostBySlug(filter.slug))?.post ?? null;
      else if (filter.id !== undefined) post = await db.getPost(filter.id);
      // Drafts, unpublished, deleted and not-yet-scheduled posts do not exist for readers.
      if (!post || !isLive(post, now())) return undefined;
      return entryOf(post, filter.fullText ? 'any' : 'public');
    },
  };
}
