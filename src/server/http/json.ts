/**
 * Cacheable API answers (DESIGN §6): ETags with 304 on If-None-Match and the cache policies of
 * gated and public data. Error answers come from responses.ts, the one owner of their shape.
 */
import { createHash } from 'node:crypto';
import type { RequestHeaders } from '../api/context.ts';
import { jsonError } from './responses.ts';

/** Gated data: only the visitor's browser may keep it, briefly. */
export const PRIVATE_CACHE = 'private, max-age=60';
/** Public, rarely changing content (banners). */
export const PUBLIC_CACHE = 'public, max-age=300';

/** 400 naming the bad input, in the one error shape of responses.ts. */
export const badRequest = (code: string, message: string, field?: string): Response => jsonError(400, code, message, field);

/** A strong validator: the body's SHA-1, base64url. Same bytes → same tag. */
export const etagOf = (body: string | Uint8Array): string =>
  `"${createHash('sha1').update(body).digest('base64url')}"`;

/** True when If-None-Match names this tag (weak comparison, `*` matches everything). */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

export interface CachedOptions {
  /** A tag computed earlier for these bytes (e.g. by the body cache). */
  readonly etag?: string;
  readonly cacheControl?: string;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
}

/**
 * The text of answers built here, beside the Response: the node:http fast lane writes it as it
 * is instead of reading the Response's body stream back (src/server/lanes/fastLane.ts).
 */
const rawBodies = new WeakMap<Response, string>();
export const rawBodyOf = (response: Response): string | undefined => rawBodies.get(response);

/** 200 with the body and its ETag, or 304 without a body when the client has it already. */
export function cachedBody(request: { readonly headers: RequestHeaders }, body: string, options: CachedOptions = {}): Response {
  const etag = options.etag ?? etagOf(body);
  const headers = new Headers(options.headers);
  headers.set('ETag', etag);
  headers.set('Cache-Control', options.cacheControl ?? PRIVATE_CACHE);
  // Gated bodies differ by who asks: shared caches must key on the cookie.
  if ((options.cacheControl ?? PRIVATE_CACHE).startsWith('private')) headers.set('Vary', 'Cookie');
  if (matchesIfNoneMatch(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
  headers.set('Content-Type', options.contentType ?? 'application/json; charset=utf-8');
  const response = new Response(body, { status: 200, headers });
  rawBodies.set(response, body);
  return response;
}

export const cachedJson = (request: { readonly headers: RequestHeaders }, data: unknown, options: CachedOptions = {}): Response =>
  cachedBody(request, JSON.stringify(data), options);
