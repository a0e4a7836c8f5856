/**
 * Public news: list pages (all posts and per type, paginated), premium teasers, and the
 * search-engine view of an article (JSON-LD NewsArticle). Read by the news pages and /rss.xml.
 */
import { getCollection } from 'astro:content';
import { futureTrendProducts, indianBazaarSections, newsTypes, type NewsType } from '../lib/catalog.ts';
import { newestFirst } from '../lib/posts.ts';
import type { NewsPost } from './content.ts';

export type { NewsPost } from './content.ts';

export const NEWS_PAGE_SIZE = 10;

/** What each post type is called on list pages, feeds and filters. */
export function newsTypeLabel(type: NewsType): string {
  if (type.startsWith('future-trend/')) {
    const slug = type.slice('future-trend/'.length);
    return `Future trend: ${futureTrendProducts.find((p) => p.slug === slug)?.name ?? slug}`;
  }
  const fixed: Partial<Record<NewsType, string>> = { 'buy-sell': 'Buy / Sell', 'plant-news': 'Plant news', blog: 'Blog', 'daily-tweet': 'Daily tweets' };
  return fixed[type] ?? indianBazaarSections.find((s) => s.slug === type)?.name ?? type;
}

/** `/news`, `/news/page/2`, `/news/type/buy-sell`, `/news/type/future-trend/PP/page/3`. */
export function newsListPath(type: NewsType | null, page = 1): string {
  const base = type ? `/news/type/${type}` : '/news';
  return page <= 1 ? base : `${base}/page/${page}`;
}

export const pageCountOf = (total: number): number => Math.max(1, Math.ceil(total / NEWS_PAGE_SIZE));

export interface NewsListPage {
  readonly type: NewsType | null;
  readonly page: number;
  readonly pages: number;
  readonly posts: readonly NewsPost[];
}

/** Every list page to prerender: all posts and each type, page 1…N, newest first. */
export async function newsListPages(): Promise<NewsListPage[]> {
  const all = newestFirst(await getCollection('news'));
  const lists: [NewsType | null, NewsPost[]][] = [[null, all], ...newsTypes.map((type) => [type, all.filter((p) => p.data.type === type)] as [NewsType, NewsPost[]])];
  return lists.flatMap(([type, posts]) => {
    const pages = pageCountOf(posts.length);
    return Array.from({ length: pages }, (_, i) => ({ type, page: i + 1, pages, posts: posts.slice(i * NEWS_PAGE_SIZE, (i + 1) * NEWS_PAGE_SIZE) }));
  });
}

/** Types that have at least one post (the filter shows only these). */
export async function typesWithPosts(): Promise<NewsType[]> {
  const present = new Set((await getCollection('news')).map((p) => p.data.type));
  return newsTypes.filter((type) => present.has(type));
}

export const isPremium = (post: NewsPost): boolean => post.data.access === 'premium';

/**
 * The public part of a premium post: its first paragraph, as rendered HTML. The rest of the
 * body never reaches a public page.
 */
export function teaserHtml(post: NewsPost): string {
  return /<p>[\s\S]*?<\/p>/.exec(post.rendered?.html ?? '')?.[0] ?? '';
}

export const articlePath = (post: NewsPost): string => `/news/${post.id}`;
/** The canonical address of an article, as the sitemap and the canonical link spell it (trailing slash). */
export const articleUrl = (post: NewsPost, site: URL): string => new URL(`${articlePath(post)}/`, site).href;
export const fullTextPath = (post: NewsPost): string => `/news/${post.id}/full`;

/** The CSS class of the element that holds (or stands for) the paywalled part of an article. */
export const PAYWALLED_CLASS = 'paywalled';

export interface JsonLdOptions {
  readonly site: URL;
  readonly imageUrl?: string | undefined;
}

/** schema.org NewsArticle for an article page; premium posts say so (isAccessibleForFree + hasPart). */
export function articleJsonLd(post: NewsPost, { site, imageUrl }: JsonLdOptions): Record<string, unknown> {
  const url = articleUrl(post, site);
  const premium = isPremium(post);
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: post.data.title,
    description: post.data.summary,
    datePublished: post.data.date,
    dateModified: post.data.date,
    author: { '@type': 'Organization', name: post.data.author },
    publisher: { '@type': 'Organization', name: 'PolyIndex', url: new URL('/', site).href, logo: { '@type': 'ImageObject', url: new URL('/favicon.svg', site).href } },
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    url,
    articleSection: newsTypeLabel(post.data.type),
    ...(post.data.tags.length > 0 ? { keywords: post.data.tags.join(', ') } : {}),
    ...(imageUrl ? { image: [imageUrl] } : {}),
    isAccessibleForFree: !premium,
    ...(premium ? { hasPart: { '@type': 'WebPageElement', isAccessibleForFree: false, cssSelector: `.${PAYWALLED_CLASS}` } } : {}),
  };
}

/** JSON for a `<script type="application/ld+json">`: `<` escaped so no text can close the script. */
export const jsonLdScript = (data: unknown): string => JSON.stringify(data).replace(/</g, '\\u003c');
