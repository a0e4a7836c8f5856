/**
 * The sitemap, built on demand: the public pages, each product's forecast track record, the news lists (each type with posts, and
 * their pages) and every live public post, read from the live collection (issue 12: "published
 * public posts"). Gated pages are never in it (a gated URL would only send crawlers to
 * /register), nor a gated post's article, which shows its title, summary and the paywall only.
 */
import { PUBLIC_PAGES } from '../lib/access/publicPaths.ts';
import { futureTrendProducts, newsTypes, type NewsType } from '../lib/catalog.ts';
import { trackRecordPath } from '../lib/forecasts/coverage.ts';
import { MAX_POST_PAGE } from './store/posts.ts';
import { pageUrl, type SitemapUrl } from '../lib/sitemap.ts';
import { articlePath } from '../lib/posts.ts';
import { isGated, NEWS_PAGE_SIZE, newsListPath } from './news.ts';
import { livePostEntries, type PostEntry } from './posts/read.ts';

/** Every live post, newest first, a store page at a time. */
async function allLivePosts(): Promise<PostEntry[]> {
  const all: PostEntry[] = [];
  for (let offset = 0; ; offset += MAX_POST_PAGE) {
    const page = await livePostEntries({ limit: MAX_POST_PAGE, offset });
    all.push(...page);
    if (page.length < MAX_POST_PAGE) return all;
  }
}

export async function sitemapUrls(site: URL): Promise<SitemapUrl[]> {
  const posts = await allLivePosts();
  const urls: SitemapUrl[] = PUBLIC_PAGES.map((path) => ({ loc: pageUrl(path, site) }));
  // Each product's public forecast track record.
  for (const product of futureTrendProducts) urls.push({ loc: pageUrl(trackRecordPath(product.slug), site) });
  const listPages = (type: NewsType | null, count: number, lastmod: string | undefined) => {
    const pages = Math.max(1, Math.ceil(count / NEWS_PAGE_SIZE));
    for (let page = type === null ? 2 : 1; page <= pages; page++) urls.push({ loc: pageUrl(newsListPath(type, page), site), lastmod: page === 1 ? lastmod : undefined });
  };
  listPages(null, posts.length, undefined);
  for (const type of newsTypes) {
    const ofType = posts.filter((p) => p.data.type === type);
    if (ofType.length > 0) listPages(type, ofType.length, ofType[0]!.data.date);
  }
  for (const post of posts.filter((p) => !isGated(p.data))) urls.push({ loc: pageUrl(articlePath(post.data), site), lastmod: post.data.updatedAt.slice(0, 10) > post.data.date ? post.data.updatedAt.slice(0, 10) : post.data.date });
  return urls;
}
