/**
 * ETags for pages that shared caches may keep (`Cache-Control: public…`, e.g. the news pages
 * rendered on demand): the body is hashed once it is rendered, and a request whose
 * If-None-Match names that hash gets 304 without a body. Responses that already carry an ETag
 * (the JSON endpoints make their own), private pages and anything but 200 GET/HEAD pass as they
 * are. A public page is the same for every visitor, so its hash is too.
 */
import type { MiddlewareHandler } from 'astro';
import { etagOf, matchesIfNoneMatch } from './json.ts';

const HASHED_TYPES = /^(text\/html|application\/(rss\+)?xml|application\/xml|text\/xml)/i;

export const conditionalGet: MiddlewareHandler = async (context, next) => {
  if (context.isPrerendered) return next();
  const response = await next();
  const method = context.request.method;
  if ((method !== 'GET' && method !== 'HEAD') || response.status !== 200 || response.headers.has('ETag')) return response;
  if (!(response.headers.get('Cache-Control') ?? '').startsWith('public')) return response;
  if (!HASHED_TYPES.test(response.headers.get('Content-Type') ?? '')) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const etag = etagOf(body);
  const headers = new Headers(response.headers);
  headers.set('ETag', etag);
  if (matchesIfNoneMatch(context.request.headers.get('If-None-Match'), etag)) {
    headers.delete('Content-Length');
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, headers });
};
