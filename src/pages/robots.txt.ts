import type { APIRoute } from 'astro';

export const prerender = true;

/** Crawlers may read the public site; the sitemap lists public pages only. */
export const GET: APIRoute = ({ site, url }) => {
  const origin = site ?? new URL(url.origin);
  const body = ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /admin', '', `Sitemap: ${new URL('/sitemap-index.xml', origin).href}`, ''].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
