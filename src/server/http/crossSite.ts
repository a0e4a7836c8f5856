/**
 * The first middleware: Astro's cross-site form check (security.checkOrigin is off, see
 * src/lib/http/crossSite.ts) with RFC 8058's one exemption. Prerendered pages are static files
 * and skip it, as Astro's does. API paths answer the JSON error every endpoint answers.
 */
import { defineMiddleware } from 'astro:middleware';
import { isRefusedCrossSite } from '../../lib/http/crossSite.ts';
import { jsonError } from './responses.ts';

export const crossSiteMiddleware = defineMiddleware((context, next) => {
  if (context.isPrerendered || !isRefusedCrossSite(context.request, context.url)) return next();
  const path = context.url.pathname;
  if (path === '/api' || path.startsWith('/api/')) return jsonError(403, 'cross_origin', 'This request must come from a PolyIndex page.');
  return new Response(`Cross-site ${context.request.method} form submissions are forbidden`, { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
});
