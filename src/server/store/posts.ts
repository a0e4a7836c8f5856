/**
 * The `posts` part of the Store port: the newsroom's posts, their slugs (old ones kept so their
 * URLs answer 301), the readers' view (live posts only: a function of status, publishAt and
 * the time of the read) and search. Every write is one transaction with its audit entry.
 *
 * Both adapters check every post with `checkPost` before writing anything.
 */
import type { NewsType } from '../../lib/catalog.ts';
import { isNewsType } from '../../lib/catalog.ts';
import { EARLIEST_POST_INSTANT, isCoverId, isPostInstant, isSlug, LATEST_POST_INSTANT, MAX_BODY, MAX_SUMMARY, MAX_TAGS, MAX_TITLE, postAccesses, postAuditView, postStatuses, type Post } from '../../lib/posts.ts';
import type { AuditActor, AuditEntry, NewAuditEntry } from './audit.ts';

export type { Post } from '../../lib/posts.ts';

export const postTarget = (id: string): string => `post:${id}`;

/** What the admin list asks for; every filter optional. */
export interface PostListQuery {
  readonly type?: NewsType | undefined;
  readonly status?: Post['status'] | undefined;
  /** Words of the title, summary or body (the search tokens; all must match). */
  readonly q?: string | undefined;
  /** Soft-deleted posts instead of the others. */
  readonly deleted?: boolean | undefined;
  /** Posts dated in this month in India (publishAt, or createdAt for a post never published). */
  readonly month?: { readonly year: number; readonly month: number } | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

/** What readers' lists ask for: live posts only, newest first. */
export interface LivePostQuery {
  readonly type?: NewsType | undefined;
  /** A calendar year in India, or a month of it (month needs year). */
  readonly year?: number | undefined;
  readonly month?: number | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

export type PostChange<R> = { readonly ok: true; readonly post: Post } | { readonly ok: false; readonly reason: R };

export type PostWriteResult<R = never> =
  | { readonly kind: 'written'; readonly post: Post; readonly entry: AuditEntry }
  /** The change leaves the post as it is: nothing written, no entry. */
  | { readonly kind: 'unchanged'; readonly post: Post }
  | { readonly kind: 'not_found' }
  /** Another post holds (or held) the slug. */
  | { readonly kind: 'slug_taken'; readonly slug: string }
  | { readonly kind: 'refused'; readonly reason: R };

export interface PostUpdate<R> {
  readonly id: string;
  /** Runs inside the transaction on the post as it is now. */
  readonly change: (current: Post) => PostChange<R>;
  readonly actor: AuditActor;
  /** `post.update`, `post.publish`, `post.schedule`, `post.unpublish`, `post.delete`, `post.cover` …, or the rule that names it from the change. */
  readonly action: string | ((before: Post, after: Post) => string);
  readonly now: Date;
}

/** A post found by a slug: `current` is false for an old slug (the page answers 301 to post.slug). */
export interface SlugMatch {
  readonly post: Post;
  readonly current: boolean;
}

/** Old slugs a post keeps answering 301 for. */
export const MAX_OLD_SLUGS = 50;

/** Most posts one read lists (the admin list, a reader's page, a feed). */
export const MAX_POST_PAGE = 500;
/** Candidates a token-index search reads before filtering (Firestore; see firestore/posts.ts). */
export const SEARCH_CANDIDATES = 300;

export interface PostStore {
  /** Creates the post (id and slug new). Audited as `post.create`. */
  createPost(input: { readonly post: Post; readonly actor: AuditActor; readonly now: Date }): Promise<PostWriteResult>;
  /** Reads, changes and writes one post in a transaction, with its audit entry. */
  updatePost<R>(update: PostUpdate<R>): Promise<PostWriteResult<R>>;
  /** Any post by id, whatever its state (the desk's view); null for none. */
  getPost(id: string): Promise<Post | null>;
  /** Any post by a current or old slug, whatever its state; the caller decides who sees it. */
  findPostBySlug(slug: string): Promise<SlugMatch | null>;
  /** The desk's list: every state but deleted (or only deleted), last updated first. */
  listPosts(query?: PostListQuery): Promise<{ readonly posts: readonly Post[]; readonly total: number }>;
  /** Live posts at `now`, newest first. */
  livePosts(query: LivePostQuery, now: Date): Promise<readonly Post[]>;
  /** Live posts at `now` whose search tokens hold every query token, newest first. */
  searchLivePosts(query: string, now: Date, limit?: number): Promise<readonly Post[]>;
  /** The types that have at least one live post at `now` (the news list's type filter). */
  liveTypes(now: Date): Promise<readonly NewsType[]>;
  hasNoPosts(): Promise<boolean>;
  /** Writes posts whose id is not there yet (seeding: a post already there is left as it is). */
  seedPosts(posts: readonly Post[]): Promise<number>;
}

/** Throws a RangeError for a post no adapter may store (checked before anything is written). */
export function checkPost(post: Post): void {
  const where = `post ${JSON.stringify(post.id)}`;
  const text = (value: unknown, what: string, max: number, min = 0) => {
    if (typeof value !== 'string' || value.length < min || value.length > max) throw new RangeError(`${where}: ${what} must be text of ${min}–${max} characters`);
  };
  text(post.id, 'id', 100, 1);
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(post.id)) throw new RangeError(`${where}: id may hold letters, digits, - and _ only`);
  if (!isSlug(post.slug)) throw new RangeError(`${where}: not a slug: ${JSON.stringify(post.slug)}`);
  if (!Array.isArray(post.oldSlugs) || post.oldSlugs.length > MAX_OLD_SLUGS || new Set(post.oldSlugs).size !== post.oldSlugs.length) throw new RangeError(`${where}: at most ${MAX_OLD_SLUGS} distinct old slugs`);
  for (const old of post.oldSlugs) if (!isSlug(old) || old === post.slug) throw new RangeError(`${where}: bad old slug ${JSON.stringify(old)}`);
  if (!isNewsType(post.type)) throw new RangeError(`${where}: not a news type: ${JSON.stringify(post.type)}`);
  text(post.title, 'title', MAX_TITLE, 1);
  text(post.summary, 'summary', MAX_SUMMARY);
  text(post.body, 'body', MAX_BODY);
  text(post.author, 'author', 200);
  if (!postAccesses.includes(post.access)) throw new RangeError(`${where}: not an access: ${JSON.stringify(post.access)}`);
  if (!postStatuses.includes(post.status)) throw new RangeError(`${where}: not a status: ${JSON.stringify(post.status)}`);
  const instant = (value: string | null, what: string, nullable: boolean) => {
    if (value === null && nullable) return;
    // In 2000–2999 only: instants are compared as ISO text, which is time order for 4-digit years only.
    if (typeof value !== 'string' || !isPostInstant(value)) throw new RangeError(`${where}: ${what} is not an instant in ${EARLIEST_POST_INSTANT.slice(0, 4)}–${LATEST_POST_INSTANT.slice(0, 4)}`);
  };
  instant(post.publishAt, 'publishAt', post.status === 'draft' || post.status === 'unpublished');
  instant(post.createdAt, 'createdAt', false);
  instant(post.updatedAt, 'updatedAt', false);
  instant(post.deletedAt, 'deletedAt', true);
  if (!Array.isArray(post.tags) || post.tags.length > MAX_TAGS || post.tags.some((t) => typeof t !== 'string' || t.length > 60)) throw new RangeError(`${where}: tags must be at most ${MAX_TAGS} short texts`);
  if (post.authorUid !== null && typeof post.authorUid !== 'string') throw new RangeError(`${where}: authorUid must be text or null`);
  if (post.cover !== null) {
    const c = post.cover;
    if (!isCoverId(c.image) || typeof c.alt !== 'string' || c.alt.length > 200 || !Number.isInteger(c.width) || !Number.isInteger(c.height) || c.width <= 0 || c.height <= 0) {
      throw new RangeError(`${where}: bad cover`);
    }
  }
}

/** Instants as stores keep them (ISO, UTC, milliseconds): one text per instant, so text order is time order. */
export const isoInstant = (value: string): string => new Date(value).toISOString();

/** The post as stored: instants normalised (stores compare them as text). */
export function normalizedPost(post: Post): Post {
  return {
    ...post,
    publishAt: post.publishAt === null ? null : isoInstant(post.publishAt),
    createdAt: isoInstant(post.createdAt),
    updatedAt: isoInstant(post.updatedAt),
    deletedAt: post.deletedAt === null ? null : isoInstant(post.deletedAt),
    tags: [...post.tags],
    oldSlugs: [...post.oldSlugs],
    cover: post.cover ? { image: post.cover.image, alt: post.cover.alt, width: post.cover.width, height: post.cover.height } : null,
  };
}

/** Field by field, as JSON: whether a change left the post as it was. */
export const samePost = (a: Post, b: Post): boolean => JSON.stringify(postAuditView(a)) === JSON.stringify(postAuditView(b));

/** The audit entries of post writes, the same from every adapter. */
export const postAuditEntry = {
  create: (post: Post, actor: AuditActor, now: Date): NewAuditEntry => ({ at: now.toISOString(), actor, action: 'post.create', target: postTarget(post.id), before: null, after: postAuditView(post) }),
  update: (action: string | ((before: Post, after: Post) => string), before: Post, after: Post, actor: AuditActor, now: Date): NewAuditEntry => ({
    at: now.toISOString(),
    actor,
    action: typeof action === 'function' ? action(before, after) : action,
    target: postTarget(after.id),
    before: postAuditView(before),
    after: postAuditView(after),
  }),
};

/** The slugs a post answers to (current first). */
export const slugsOf = (post: Post): string[] => [post.slug, ...post.oldSlugs];

/** Bounds a caller's paging. */
export function pageOf(query: { limit?: number | undefined; offset?: number | undefined }, fallback = 50): { limit: number; offset: number } {
  const limit = Math.min(Math.max(1, Math.floor(query.limit ?? fallback)), MAX_POST_PAGE);
  const offset = Math.max(0, Math.floor(query.offset ?? 0));
  return { limit, offset };
}
