/**
 * Cacheable API answers (docs/data.md): ETags with 304 on If-None-Match and the cache policies of
 * gated and public data. Error answers come from responses.ts, the one owner of their shape.
 */
import { createHash } from 'node:crypto';
import { responseOf, type RequestHeaders, type WireAnswer } from './answer.ts';
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

const WIRE_MEMO_MAX = 2_000;
const wireMemo = new Map<string, WireAnswer>();

/**
 * 200 with the body and its ETag, or 304 without a body when the client has it already, as its
 * wire form (./answer.ts): built once per body and options (bounded), then shared.
 */
export function preparedAnswer(request: { readonly headers: RequestHeaders }, body: string, options: CachedOptions = {}): WireAnswer {
  const etag = options.etag ?? etagOf(body);
  const status = matchesIfNoneMatch(request.headers.get('If-None-Match'), etag) ? 304 : 200;
  // The headers are built from `options` alone, so the key names everything the answer holds.
  const key = `${status}\0${etag}\0${options.cacheControl ?? ''}\0${options.contentType ?? ''}\0${options.headers ? JSON.stringify(options.headers) : ''}`;
  const known = wireMemo.get(key);
  if (known) return known;
  const headers = new Headers(options.headers);
  headers.set('ETag', etag);
  headers.set('Cache-Control', options.cacheControl ?? PRIVATE_CACHE);
  // Gated bodies differ by who asks: shared caches must key on the cookie.
  if ((options.cacheControl ?? PRIVATE_CACHE).startsWith('private')) headers.set('Vary', 'Cookie');
  // A 304 keeps its type for the lanes' compression rule (the same validator as its 200); it is not sent.
  headers.set('Content-Type', options.contentType ?? 'application/json; charset=utf-8');
  const wire: WireAnswer = Object.freeze({ status, headers: Object.freeze(Object.fromEntries(headers)), body: status === 200 ? Buffer.from(body) : null });
  if (wireMemo.size >= WIRE_MEMO_MAX) wireMemo.delete(wireMemo.keys().next().value!);
  wireMemo.set(key, wire);
  return wire;
}

/** `preparedAnswer` as a Response. */
export const cachedBody = (request: { readonly headers: RequestHeaders }, body: string, options: CachedOptions = {}): Response =>
  responseOf(preparedAnswer(request, body, options));

export const cachedJson = (request: { readonly headers: RequestHeaders }, data: unknown, options: CachedOptions = {}): Response =>
  cachedBody(request, JSON.stringify(data), options);
