import type { APIRoute } from 'astro';
import { sitemapIndex } from '../lib/sitemap.ts';

export const prerender = false;

/** The sitemap index robots.txt names: one sitemap, built on demand from the store (sitemap-0.xml). */
export const GET: APIRoute = ({ site, url }) =>
  new Response(sitemapIndex([new URL('/sitemap-0.xml', site ?? url.origin).href]), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
