/** Sitemap XML (sitemaps.org 0.9), pure: a URL set and a sitemap index. */
import { escapeXml } from './xml.ts';

export interface SitemapUrl {
  readonly loc: string;
  /** `YYYY-MM-DD` or an ISO instant. */
  readonly lastmod?: string | undefined;
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export function urlSet(urls: readonly SitemapUrl[]): string {
  const items = urls.map((u) => `<url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${escapeXml(u.lastmod)}</lastmod>` : ''}</url>`);
  return `${HEAD}<urlset xmlns="${NS}">${items.join('')}</urlset>`;
}

export function sitemapIndex(sitemaps: readonly string[]): string {
  return `${HEAD}<sitemapindex xmlns="${NS}">${sitemaps.map((loc) => `<sitemap><loc>${escapeXml(loc)}</loc></sitemap>`).join('')}</sitemapindex>`;
}

/** A page's address as the sitemap spells it: absolute, with a trailing slash (files keep theirs). */
export const pageUrl = (path: string, site: URL): string => new URL(path.endsWith('/') || /\.[a-z0-9]+$/i.test(path) ? path : `${path}/`, site).href;
