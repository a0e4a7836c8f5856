/**
 * Which paths an anonymous visitor may see: the home page, the plans (/pricing), sign-in, legal pages
 * (the payment provider requires them public), and the public news. Read by the access
 * policy, by the sitemap filter and by the rendering rule (public ⇔ prerendered).
 */
import { METHODOLOGY_FAMILIES, methodologyPath } from '../basis.ts';

/** The public pages (not feeds or files): what the sitemap lists besides the news. The methodology is public: how a price is made is no secret. */
export const PUBLIC_PAGES: readonly string[] = ['/', '/pricing', '/register', '/terms', '/privacy', '/refunds', '/contact', '/news', '/methodology', '/developers', ...METHODOLOGY_FAMILIES.map((f) => methodologyPath(f.slug))];
const PUBLIC_EXACT = new Set([...PUBLIC_PAGES, '/rss.xml', '/robots.txt', '/sitemap-index.xml', '/sitemap-0.xml', '/_image']);
const PUBLIC_PREFIXES = ['/news/', '/methodology/'];
/** A premium article's full text (`/news/{slug}/full`) is for entitled readers only. */
const PREMIUM_FULL_TEXT = /^\/news\/[^/]+\/full$/;
/**
 * A future-trend product's track record: the forecast scoreboard and the matured calls, with no
 * price level (src/lib/forecasts/view.ts). The product's page itself, with the open calls, is
 * not public. Rendered on demand (its data is live), cached by shared caches like the news.
 */
const FORECAST_TRACK_RECORD = /^\/future-trend\/[^/]+\/track-record$/;

/** Strips one trailing slash so `/terms/` and `/terms` are one path. */
export const normalizePath = (pathname: string): string =>
  pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;

export function isPublicPath(pathname: string): boolean {
  const path = normalizePath(pathname);
  if (PREMIUM_FULL_TEXT.test(path)) return false;
  if (FORECAST_TRACK_RECORD.test(path)) return true;
  return PUBLIC_EXACT.has(path) || PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix));
}
