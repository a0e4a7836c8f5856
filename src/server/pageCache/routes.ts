/**
 * Which pages the page cache keeps (./cache.ts): on-demand pages that are the same for every
 * visitor without a session, by route kind, and what each is made of (so which writes drop it).
 * Pages built at build time (/, /pricing, /methodology and its families, /contact …) are files of
 * the build and are answered from memory, compressed, by src/server/http/compressedFiles.ts.
 *
 * | Route                                   | Made of               | Dropped by                          |
 * |-----------------------------------------|-----------------------|-------------------------------------|
 * | /news, /news/page/N, /news/type/…       | live posts            | a post created, edited, unpublished, deleted, seeded |
 * | /news/{slug} (an article; a gated one's teaser) | one live post | the same                            |
 * | /rss.xml, /sitemap-index.xml, /sitemap-0.xml | live posts, the catalog | the same                    |
 *
 * Banner changes drop every page too (src/server/store/documents/publicChanges.ts): no page here
 * shows banners today, but the layout may. No cached page shows a price, so price writes do not
 * drop them. Every page also expires after PAGE_TTL_MS (./cache.ts): a post scheduled for later
 * goes live on its minute, as PUBLIC_PAGE_CACHE lets shared caches keep it.
 *
 * Not kept: /news/search (any query), a gated post's full text, and anything else.
 */
const CACHED_ROUTES: readonly RegExp[] = [
  /^\/news\/?$/,
  /^\/news\/page\/\d{1,4}\/?$/,
  /^\/news\/type\/[a-z0-9-]+(?:\/[a-z0-9-]+)?(?:\/page\/\d{1,4})?\/?$/,
  /^\/news\/(?!search\/?$|page\/|type\/|images\/)[A-Za-z0-9_-]+\/?$/,
  /^\/rss\.xml$/,
  /^\/sitemap-index\.xml$/,
  /^\/sitemap-0\.xml$/,
];

export const isCachedRoute = (pathname: string): boolean => CACHED_ROUTES.some((route) => route.test(pathname));
