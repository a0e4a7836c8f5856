/**
 * Public news: list pages (all posts and per type, a page at a time), gated posts' teasers,
 * and the search-engine view of an article (JSON-LD NewsArticle). Posts come from the live
 * collection (src/server/posts/read.ts); pages are rendered on demand and cached briefly by
 * shared caches (PUBLIC_PAGE_CACHE).
 */
import { futureTrendProducts, globalBazaarCountries, indianBazaarSections, newsTypes, services, type NewsType } from '../lib/catalog.ts';
import { articleUrl, coverUrl, COVER_WIDTHS, type PostAccess } from '../lib/posts.ts';
import { livePostEntries, type PostEntry, type PostEntryData } from './posts/read.ts';
import { store } from './runtime.ts';

export type { PostEntry, PostEntryData } from './posts/read.ts';

export const NEWS_PAGE_SIZE = 10;

/**
 * Public pages built from posts: a CDN (or any shared cache) may keep them a minute and serve
 * them stale for ten while it fetches a new copy, so a post is live everywhere within about a
 * minute and a reader costs a cache hit, not a render.
 */
export const PUBLIC_PAGE_CACHE = 'public, s-maxage=60, stale-while-revalidate=600';

/** What each post type is called on list pages, feeds and filters. */
export function newsTypeLabel(type: NewsType): string {
  const [group, slug = ''] = type.split('/') as [string, string?];
  if (group === 'future-trend') return `Future trend: ${futureTrendProducts.find((p) => p.slug === slug)?.name ?? slug}`;
  if (group === 'global-bazaar') return `Global Bazaar: ${globalBazaarCountries.find((c) => c.slug === slug)?.name ?? slug}`;
  if (group === 'services') return services.find((s) => s.slug === slug)?.name ?? slug;
  const fixed: Partial<Record<NewsType, string>> = {
    'buy-sell': 'Buy / Sell',
    'plant-news': 'Plant news',
    'vip-delegations': 'VIP delegations',
    blog: 'Blog',
    'daily-tweet': 'Daily tweets',
  };
  return fixed[type] ?? indianBazaarSections.find((s) => s.slug === type)?.name ?? type;
}

/** `/news`, `/news/page/2`, `/news/type/buy-sell`, `/news/type/future-trend/PP/page/3`. */
export function newsListPath(type: NewsType | null, page = 1): string {
  const base = type ? `/news/type/${type}` : '/news';
  return page <= 1 ? base : `${base}/page/${page}`;
}

export interface NewsListPage {
  readonly type: NewsType | null;
  readonly page: number;
  readonly posts: readonly PostEntry[];
  /** A next (older) page exists. */
  readonly hasOlder: boolean;
}

/** One page of a list, newest first; null for a page past the end (page 1 always exists). */
export async function newsListPage(type: NewsType | null, page: number): Promise<NewsListPage | null> {
  const entries = await livePostEntries({ ...(type ? { type } : {}), limit: NEWS_PAGE_SIZE + 1, offset: (page - 1) * NEWS_PAGE_SIZE });
  if (page > 1 && entries.length === 0) return null;
  return { type, page, posts: entries.slice(0, NEWS_PAGE_SIZE), hasOlder: entries.length > NEWS_PAGE_SIZE };
}

/** Types that have at least one live post (the filter shows only these), in catalog order. */
export async function typesWithPosts(now: Date = new Date()): Promise<NewsType[]> {
  const present = new Set(await (await store()).liveTypes(now));
  return newsTypes.filter((type) => present.has(type));
}

/** `/news/page/{n}` and `/news/type/{type}[/page/{n}]` back to (type, page); null when it is neither. */
export function parseListPath(path: string): { type: NewsType; page: number } | null {
  const match = /^(.+?)(?:\/page\/(\d{1,4}))?$/.exec(path);
  if (!match) return null;
  const type = newsTypes.find((t) => t === match[1]);
  const page = match[2] === undefined ? 1 : Number(match[2]);
  return type && page >= 1 && (match[2] === undefined || page >= 2) ? { type, page } : null;
}

export const isGated = (post: { access: PostAccess }): boolean => post.access !== 'public';


/** The cover's largest stored variant, or null. */
export const coverImageUrl = (post: Pick<PostEntryData, 'cover'>, width: number = COVER_WIDTHS[0]): string | null => (post.cover ? coverUrl(post.cover, width) : null);

/** The CSS class of the element that holds (or stands for) the paywalled part of an article. */
export const PAYWALLED_CLASS = 'paywalled';

export interface JsonLdOptions {
  readonly site: URL;
  readonly imageUrl?: string | undefined;
}

/** schema.org NewsArticle for an article page; gated posts say so (isAccessibleForFree + hasPart). */
export function articleJsonLd(post: PostEntryData, { site, imageUrl }: JsonLdOptions): Record<string, unknown> {
  const url = articleUrl(post, site);
  const gated = isGated(post);
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: post.title,
    description: post.summary,
    datePublished: post.date,
    dateModified: post.updatedAt,
    author: { '@type': 'Organization', name: post.author },
    publisher: { '@type': 'Organization', name: 'PolyIndex', url: new URL('/', site).href, logo: { '@type': 'ImageObject', url: new URL('/favicon.svg', site).href } },
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    url,
    articleSection: newsTypeLabel(post.type),
    ...(post.tags.length > 0 ? { keywords: post.tags.join(', ') } : {}),
    ...(imageUrl ? { image: [imageUrl] } : {}),
    isAccessibleForFree: !gated,
    ...(gated ? { hasPart: { '@type': 'WebPageElement', isAccessibleForFree: false, cssSelector: `.${PAYWALLED_CLASS}` } } : {}),
  };
}

/** JSON for a `<script type="application/ld+json">`: `<` escaped so no text can close the script. */
export const jsonLdScript = (data: unknown): string => JSON.stringify(data).replace(/</g, '\\u003c');
