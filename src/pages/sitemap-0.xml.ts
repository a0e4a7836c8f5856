import type { APIRoute } from 'astro';
import { urlSet } from '../lib/sitemap.ts';
import { PUBLIC_PAGE_CACHE } from '../server/news.ts';
import { sitemapUrls } from '../server/sitemap.ts';

export const prerender = false;

/** Public pages and every live post (src/server/sitemap.ts), cached a minute by shared caches like the news pages. */
export const GET: APIRoute = async ({ site, url }) =>
  new Response(urlSet(await sitemapUrls(site ?? new URL(url.origin))), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': PUBLIC_PAGE_CACHE },
  });
