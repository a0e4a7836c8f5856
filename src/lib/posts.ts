/**
 * The newsroom's posts, pure: the record, who may read it, when it is live, slugs, dates, the
 * search tokens, and the rules of the desk's status changes. Stores, pages, feeds and the API
 * all read these; no I/O here.
 */
import type { NewsType } from './catalog.ts';
import { BUSINESS_TIME_ZONE, isRealDate, isoDateOf, monthOf, yearOf, type IsoDate } from './dates.ts';

/** Who may read a post's full text: everyone, whoever may open the limited sections, or full access. */
export const postAccesses = ['public', 'limited', 'full'] as const;
export type PostAccess = (typeof postAccesses)[number];

export const postStatuses = ['draft', 'scheduled', 'published', 'unpublished'] as const;
export type PostStatus = (typeof postStatuses)[number];

/** A cover image in the store: `{image}-{width}.webp` for each of COVER_WIDTHS. */
export interface PostCover {
  /** The upload's id (a UUID); the stored files are coverFileName(image, width). */
  readonly image: string;
  readonly alt: string;
  /** Of the widest stored variant (for the page's width/height attributes: no layout shift). */
  readonly width: number;
  readonly height: number;
}

export interface Post {
  /** Stable: seeded posts keep their file name, new ones get a generated id. */
  readonly id: string;
  /** The current URL segment: `/news/{slug}`. */
  readonly slug: string;
  /** Earlier slugs, oldest first: each answers 301 to the current one. */
  readonly oldSlugs: readonly string[];
  readonly type: NewsType;
  readonly title: string;
  readonly summary: string;
  /** Markdown, rendered and sanitised by src/server/posts/render.ts. */
  readonly body: string;
  readonly cover: PostCover | null;
  readonly access: PostAccess;
  readonly status: PostStatus;
  /** ISO instant: when a scheduled post goes live, when a published one went live. */
  readonly publishAt: string | null;
  /** The byline. */
  readonly author: string;
  /** The account that created it (null for seeded posts). */
  readonly authorUid: string | null;
  readonly tags: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Soft delete: the post is gone from every reader's view, its record and slugs stay. */
  readonly deletedAt: string | null;
}

export const MAX_TITLE = 200;
export const MAX_SUMMARY = 500;
/** Characters of markdown: a long analysis fits; the audit log stores the body before and after. */
export const MAX_BODY = 50_000;
export const MAX_TAGS = 20;
export const MAX_SLUG = 100;

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const isSlug = (text: string): boolean => text.length <= MAX_SLUG && SLUG_PATTERN.test(text);

/**
 * When the post is live for readers: the instant it went (or goes) live, or null while it is a
 * draft, unpublished or deleted. A store keeps this beside the post so "live at `now`" is one
 * comparison at read time: a scheduled post appears at `publishAt` on every instance, with no
 * job or request having to flip it.
 */
export function liveAtOf(post: Pick<Post, 'status' | 'publishAt' | 'deletedAt'>): string | null {
  if (post.deletedAt) return null;
  return post.status === 'published' || post.status === 'scheduled' ? post.publishAt : null;
}

/**
 * Instants a post may carry: years 2000–2999. Stores keep instants as ISO text and compare them
 * as text, which is time order only while every year has four digits: a year past 9999 is
 * `+010000-…`, which sorts before `2026-…`, so a post scheduled that far ahead would be live
 * at once in every list (and a year before 0 is `-00000…`). The window keeps that far away.
 */
export const EARLIEST_POST_INSTANT = '2000-01-01T00:00:00.000Z';
export const LATEST_POST_INSTANT = '2999-12-31T23:59:59.999Z';

/** A parseable instant inside the window above (what both stores and the desk's API accept). */
export function isPostInstant(value: string): boolean {
  const at = Date.parse(value);
  return !Number.isNaN(at) && at >= Date.parse(EARLIEST_POST_INSTANT) && at <= Date.parse(LATEST_POST_INSTANT);
}

export function isLive(post: Pick<Post, 'status' | 'publishAt' | 'deletedAt'>, now: Date): boolean {
  const at = liveAtOf(post);
  return at !== null && Date.parse(at) <= now.getTime();
}

/** The post's date as readers see it (India's calendar day of going live; of creation for drafts). */
export const postDate = (post: Pick<Post, 'publishAt' | 'createdAt'>): IsoDate => isoDateOf(new Date(post.publishAt ?? post.createdAt));

/** Newest first by the instant they went live, then by id (a stable order for equal instants). */
export const newestFirst = <T extends Pick<Post, 'id' | 'publishAt' | 'createdAt'>>(posts: readonly T[]): T[] =>
  posts.toSorted((a, b) => {
    const at = (p: T) => p.publishAt ?? p.createdAt;
    return at(a) < at(b) ? 1 : at(a) > at(b) ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
  });

export const inMonth = (date: IsoDate, year: number, month: number): boolean => yearOf(date) === year && monthOf(date) === month;

/** The instants [from, to) of a calendar month in India, as ISO text (what stores compare). */
export function monthRange(year: number, month: number): { from: string; to: string } {
  const start = Date.UTC(year, month - 1, 1) - IST_OFFSET_MS;
  const end = Date.UTC(month === 12 ? year + 1 : year, month === 12 ? 0 : month, 1) - IST_OFFSET_MS;
  return { from: new Date(start).toISOString(), to: new Date(end).toISOString() };
}

/** The instants [from, to) of a calendar year in India. */
export function yearRange(year: number): { from: string; to: string } {
  return { from: new Date(Date.UTC(year, 0, 1) - IST_OFFSET_MS).toISOString(), to: new Date(Date.UTC(year + 1, 0, 1) - IST_OFFSET_MS).toISOString() };
}

/** India has no daylight saving: +05:30 all year. */
const IST_OFFSET_MS = 330 * 60_000;

/**
 * "2026-11-24T15:30" as India's wall-clock time (the editor's publish-at field), as an ISO
 * instant; null when it is not a real date and time.
 */
export function instantFromIndianTime(text: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second) - IST_OFFSET_MS).toISOString();
}

/** An instant as India's wall-clock `YYYY-MM-DDTHH:MM` (the value of a datetime-local field). */
export function indianTimeOf(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: BUSINESS_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}

/** Where a post is read: `/news/{slug}` (the one owner of article paths: pages, feed, sitemap, API answers, mail). */
export const articlePath = (post: Pick<Post, 'slug'>): string => `/news/${post.slug}`;
/** The canonical address of an article, as the sitemap, the canonical link and mail spell it (trailing slash). */
export const articleUrl = (post: Pick<Post, 'slug'>, site: URL): string => new URL(`${articlePath(post)}/`, site).href;
/** A gated post's full text (the page decides who may read it). */
export const fullTextPath = (post: Pick<Post, 'slug'>): string => `${articlePath(post)}/full`;

/** A URL segment from a title: lower-case ASCII words joined by hyphens (accents dropped). */
export function slugify(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > 80) break;
    slug = next;
  }
  return slug || 'post';
}

/** A new post's slug, as the seeded posts are named: `{India's date}-{title words}`. */
export const newPostSlug = (title: string, now: Date): string => `${isoDateOf(now)}-${slugify(title)}`;

/** `base`, or `base-2`, `base-3` … : the first that `taken` does not hold. */
export function uniqueSlug(base: string, taken: (slug: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, MAX_SLUG - String(n).length - 1)}-${n}`;
    if (!taken(candidate)) return candidate;
  }
}

// ---- search ------------------------------------------------------------------------------

/** Tokens kept per post: far below Firestore's index-entry limit, far above a long article's vocabulary. */
export const MAX_SEARCH_TOKENS = 5_000;
/** Words a search looks for at most (the rest of a long query is ignored). */
export const MAX_QUERY_TOKENS = 8;

/**
 * The words of a text as search tokens: accents folded, lower case, letters and digits (any
 * script), one-letter words dropped, each once. The stores index these and a query is split
 * the same way, so SQLite (FTS5) and Firestore (a token array) find the same posts.
 */
export function searchTokens(text: string, max = MAX_SEARCH_TOKENS): string[] {
  const seen = new Set<string>();
  // Latin accents go (NFKD, then the combining diacritics block); the vowel signs of Indian
  // scripts are marks too, and stay part of their word.
  const folded = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').normalize('NFC').toLowerCase();
  for (const raw of folded.split(/[^\p{L}\p{N}\p{M}]+/u)) {
    if (raw.length < 2 || raw.length > 40) continue;
    seen.add(raw);
    if (seen.size >= max) break;
  }
  return [...seen];
}

/** What a reader's search may find in a post: title and summary always, the body only of a public post. */
export const searchTextOf = (post: Pick<Post, 'title' | 'summary' | 'body' | 'access'>): string =>
  [post.title, post.summary, post.access === 'public' ? post.body : ''].join('\n');

/** What the desk's search looks in: everything a post says, whoever may read it (both stores tokenise this). */
export const deskTextOf = (post: Pick<Post, 'title' | 'summary' | 'body' | 'slug' | 'tags'>): string => [post.title, post.summary, post.body, post.slug, ...post.tags].join('\n');

export const queryTokens = (query: string): string[] => searchTokens(query, MAX_QUERY_TOKENS);

/** True when every query token is among the post's tokens (the stores' rule, for the stand-ins that filter in memory). */
export const matchesAllTokens = (postTokens: ReadonlySet<string> | readonly string[], query: readonly string[]): boolean => {
  const set = postTokens instanceof Set ? postTokens : new Set(postTokens);
  return query.length > 0 && query.every((token) => set.has(token));
};

// ---- the desk's changes ------------------------------------------------------------------

export type PublishRule =
  | { readonly ok: true; readonly publishAt: string | null }
  | { readonly ok: false; readonly field: 'publishAt' | 'status'; readonly message: string };

/**
 * The `publishAt` a status change leaves: publishing keeps a past publish time (a post put back
 * keeps its date) or takes now; scheduling needs a time in the future; publishing with a time in
 * the future is scheduling, and is refused as such.
 */
export function publishAtFor(status: PostStatus, requested: string | null | undefined, current: string | null, now: Date): PublishRule {
  if (status === 'scheduled') {
    const at = requested ?? current;
    if (!at) return { ok: false, field: 'publishAt', message: 'Choose when the post goes live.' };
    if (Date.parse(at) <= now.getTime()) return { ok: false, field: 'publishAt', message: 'The publish time must be in the future; to publish now, use Publish.' };
    return { ok: true, publishAt: at };
  }
  if (status === 'published') {
    if (requested) {
      if (Date.parse(requested) > now.getTime()) return { ok: false, field: 'publishAt', message: 'A time in the future schedules the post: use Schedule.' };
      return { ok: true, publishAt: requested };
    }
    if (current && Date.parse(current) <= now.getTime()) return { ok: true, publishAt: current };
    return { ok: true, publishAt: now.toISOString() };
  }
  return { ok: true, publishAt: requested === undefined ? current : requested };
}

/** The fields a post's audit entry shows (the whole record; the log shows those that changed). */
export const postAuditView = (post: Post): Record<string, unknown> => ({ ...post, cover: post.cover ? { ...post.cover } : null, tags: [...post.tags], oldSlugs: [...post.oldSlugs] });

/** Cover images are stored in these widths (webp), the widest first. */
export const COVER_WIDTHS = [1200, 600] as const;
export const coverFileName = (image: string, width: number): string => `${image}-${width}.webp`;
/** Where a stored cover is served (public, immutable: names are unique per upload). */
export const COVER_PATH = '/news/images/';
export const coverUrl = (cover: PostCover, width: number): string => `${COVER_PATH}${coverFileName(cover.image, width)}`;
export const isCoverId = (text: string): boolean => /^[a-f0-9-]{36}$/.test(text);

// ---- how readers are told ----------------------------------------------------------------

/** The badge beside a gated post's title; null for a public post. */
export const accessBadge = (access: PostAccess): string | null => (access === 'full' ? 'Premium' : access === 'limited' ? 'Members' : null);

/** The paywall's heading and text for a gated post. */
export function paywallText(access: Exclude<PostAccess, 'public'>): { heading: string; text: string } {
  return access === 'full'
    ? { heading: 'Continue reading with PolyIndex Premium', text: 'The full analysis is for Premium subscribers and readers in their free trial.' }
    : { heading: 'Continue reading as a PolyIndex member', text: 'The full post is for signed-in members: sign in or create a free account.' };
}

/** What a post's full text asks of its reader, in the access policy's words. */
export const readRequirement = (access: PostAccess): 'public' | 'limited' | 'full' => access;
