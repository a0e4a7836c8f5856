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
 * The wire form of an answer built here (status, header values, body bytes), beside the
 * Response: the node:http fast lane writes it as it is instead of reading the Response back
 * (src/server/lanes/fastLane.ts). Prepared bodies are answered all day with the same bytes, so
 * the wire form is kept per body and options (bounded), not rebuilt per request.
 */
export interface WireAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | null;
}
const wireForms = new WeakMap<Response, WireAnswer>();
export const wireOf = (response: Response): WireAnswer | undefined => wireForms.get(response);
const WIRE_MEMO_MAX = 2_000;
const wireMemo = new Map<string, WireAnswer>();

/** `headers` are built from `options` alone, so the key names everything they hold. */
function wireAnswer(status: 200 | 304, body: string, etag: string, options: CachedOptions, headers: Headers): WireAnswer {
  const key = `${status}\0${etag}\0${options.cacheControl ?? ''}\0${options.contentType ?? ''}\0${options.headers ? JSON.stringify(options.headers) : ''}`;
  let wire = wireMemo.get(key);
  if (!wire) {
    const bytes = status === 200 ? Buffer.from(body) : null;
    const values: Record<string, string> = Object.fromEntries(headers);
    if (bytes) values['content-length'] = String(bytes.length);
    wire = { status, headers: values, body: bytes };
    if (wireMemo.size >= WIRE_MEMO_MAX) wireMemo.delete(wireMemo.keys().next().value!);
    wireMemo.set(key, wire);
  }
  return wire;
}

/** 200 with the body and its ETag, or 304 without a body when the client has it already. */
export function cachedBody(request: { readonly headers: RequestHeaders }, body: string, options: CachedOptions = {}): Response {
  const etag = options.etag ?? etagOf(body);
  const headers = new Headers(options.headers);
  headers.set('ETag', etag);
  headers.set('Cache-Control', options.cacheControl ?? PRIVATE_CACHE);
  // Gated bodies differ by who asks: shared caches must key on the cookie.
  if ((options.cacheControl ?? PRIVATE_CACHE).startsWith('private')) headers.set('Vary', 'Cookie');
  if (matchesIfNoneMatch(request.headers.get('If-None-Match'), etag)) {
    const notModified = new Response(null, { status: 304, headers });
    wireForms.set(notModified, wireAnswer(304, body, etag, options, headers));
    return notModified;
  }
  headers.set('Content-Type', options.contentType ?? 'application/json; charset=utf-8');
  const response = new Response(body, { status: 200, headers });
  wireForms.set(response, wireAnswer(200, body, etag, options, headers));
  return response;
}

export const cachedJson = (request: { readonly headers: RequestHeaders }, data: unknown, options: CachedOptions = {}): Response =>
  cachedBody(request, JSON.stringify(data), options);
