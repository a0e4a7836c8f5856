/**
 * Compression of the answers both lanes and the built files send (node:zlib): HTML, JSON, CSS,
 * JavaScript, SVG, XML and plain text, in brotli or gzip as the request's Accept-Encoding prefers
 * (q-values honoured; identity when both are refused or the header is absent).
 *
 * The rules, one owner:
 * - **What.** An answer with a body (a page, an API answer, an error page) of a compressible
 *   type, with no Content-Encoding of its own (never twice), no `Cache-Control: no-transform`,
 *   and at least MIN_COMPRESSED_BYTES of body (below that the frame costs more than it saves).
 * - **Vary.** Every answer of a compressible type says `Vary: Accept-Encoding`, compressed or not,
 *   so a shared cache keeps a copy per encoding.
 * - **ETag.** The bytes differ by encoding, so an answer of a compressible type sent to a request
 *   that accepts brotli or gzip carries its validator weak (`W/"…"`). The rule does not depend on
 *   the body's size, so a 304 (which has no body) carries exactly the tag its 200 would: the 304's
 *   Content-Type, kept by the answer for this decision, is dropped on the wire.
 * - **Kept bodies** (prepared API bodies, cached public pages, built files) are compressed once per
 *   encoding, a little harder, and the bytes are kept beside them (`keptVariant`); a body made per
 *   request is compressed at a quality that costs a few milliseconds at most.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type ContentCoding = 'br' | 'gzip';

/** Smaller bodies are sent as they are. */
export const MIN_COMPRESSED_BYTES = 1024;

const COMPRESSIBLE = /^(?:text\/(?:html|css|javascript|plain|xml)|application\/(?:json|javascript|xml|(?:[\w.-]+\+)(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/i;

/** True for the content types this module compresses (a Content-Type header's value). */
export const isCompressibleType = (contentType: string | null | undefined): boolean => !!contentType && COMPRESSIBLE.test(contentType.trim());

/**
 * The coding to send for an Accept-Encoding header: the acceptable one (q > 0) with the highest
 * q-value, brotli on a tie; `*` stands for a coding not named; null for identity.
 */
export function negotiateEncoding(header: string | null | undefined): ContentCoding | null {
  if (!header) return null;
  const q: Partial<Record<ContentCoding | '*', number>> = {};
  for (const part of header.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    let weight = 1;
    for (const param of params) {
      // A q-value that is not a number makes the coding unacceptable.
      const m = /^\s*q\s*=\s*(.*?)\s*$/i.exec(param);
      if (m) weight = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(m[1]!) ? Number(m[1]) : 0;
    }
    const coding = name === 'x-gzip' ? 'gzip' : name;
    if (coding === 'br' || coding === 'gzip' || coding === '*') q[coding] = Math.max(q[coding] ?? 0, weight);
  }
  const weightOf = (coding: ContentCoding): number => q[coding] ?? q['*'] ?? 0;
  const br = weightOf('br');
  const gz = weightOf('gzip');
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

/** True when the request takes a compressed answer at all (and so gets weak validators). */
export const acceptsCompression = (header: string | null | undefined): boolean => negotiateEncoding(header) !== null;

/** How hard to try: once for a kept body, cheaply for a body made per request. */
export type Effort = 'kept' | 'per-request';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The body in `coding` (node:zlib on its thread pool: the event loop goes on meanwhile). */
export function compress(body: Uint8Array, coding: ContentCoding, effort: Effort): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body, { level: effort === 'kept' ? 9 : 6 });
  return brotli(body, {
    params: {
      // Not 11: on a busy 2-core machine quality 11 took 0.5 s for a 67 KB page and 1.3 s for the
      // 229 KB script (5: 41 and 63 ms) for 10 % fewer bytes, and kept pages are made again every minute.
      [constants.BROTLI_PARAM_QUALITY]: effort === 'kept' ? 6 : 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

const kept = new WeakMap<object, Partial<Record<ContentCoding, Promise<Buffer>>>>();

/**
 * The body of a kept answer in `coding`, compressed the first time it is asked for and then kept
 * as long as `owner` lives (one compression however many requests ask at once; a failure is not kept).
 */
export function keptVariant(owner: object, body: Uint8Array, coding: ContentCoding): Promise<Buffer> {
  let variants = kept.get(owner);
  if (!variants) kept.set(owner, (variants = {}));
  const known = variants[coding];
  if (known) return known;
  const made = compress(body, coding, 'kept');
  variants[coding] = made;
  made.catch(() => {
    if (variants[coding] === made) delete variants[coding];
  });
  return made;
}

/** `Vary` with `Accept-Encoding` added (once). */
export function varyWithEncoding(vary: string | null | undefined): string {
  if (!vary) return 'Accept-Encoding';
  const names = vary.split(',').map((name) => name.trim().toLowerCase());
  return names.includes('accept-encoding') || names.includes('*') ? vary : `${vary}, Accept-Encoding`;
}

/** An entity tag in its weak form. */
export const weakTag = (etag: string): string => (etag.startsWith('W/') ? etag : `W/${etag}`);

/** What an answer's headers say about compressing it (lower-case names, as node:http writes them). */
interface HeaderView {
  get(name: string): string | null | undefined;
}

/** Whether an answer of this status and these headers is one whose encoding is negotiated at all. */
export function negotiable(status: number, headers: HeaderView): boolean {
  // No body to encode (204, 1xx), or a byte range of the identity bytes (206).
  if (status < 200 || status === 204 || status === 206) return false;
  if (!isCompressibleType(headers.get('content-type'))) return false;
  if (headers.get('content-encoding')) return false;
  return !/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headers.get('cache-control') ?? '');
}

/** The plan for one answer to one request: which coding (null: as it is) and the header changes. */
export interface EncodingPlan {
  /** The coding to send the body in; null to send it as it is. */
  readonly coding: ContentCoding | null;
  /** Headers to set (lower-case names). */
  readonly set: Readonly<Record<string, string>>;
  /** Headers to remove (lower-case names). */
  readonly remove: readonly string[];
}

const AS_IT_IS: EncodingPlan = Object.freeze({ coding: null, set: Object.freeze({}), remove: Object.freeze([]) as readonly string[] });

/**
 * How to send an answer (its status, headers and body length; null when unknown) to a request
 * with this Accept-Encoding: the coding and the headers that go with it.
 */
export function planEncoding(acceptEncoding: string | null | undefined, status: number, headers: HeaderView, bodyLength: number | null): EncodingPlan {
  if (!negotiable(status, headers)) return AS_IT_IS;
  const accepted = negotiateEncoding(acceptEncoding);
  const set: Record<string, string> = { vary: varyWithEncoding(headers.get('vary')) };
  const etag = headers.get('etag');
  if (accepted && etag) set['etag'] = weakTag(etag);
  // A 304 has no body: its Content-Type was kept for this decision only.
  if (status === 304) return { coding: null, set, remove: ['content-type', 'content-length'] };
  const coding = accepted && bodyLength !== null && bodyLength >= MIN_COMPRESSED_BYTES ? accepted : null;
  if (coding) set['content-encoding'] = coding;
  return { coding, set, remove: coding ? ['content-length'] : [] };
}

/** A header record (lower-case names) with a plan's changes applied (a new object). */
export function applyPlan(headers: Readonly<Record<string, string>>, plan: EncodingPlan): Record<string, string> {
  const out: Record<string, string> = { ...headers };
  for (const name of plan.remove) delete out[name];
  Object.assign(out, plan.set);
  return out;
}

const recordView = (headers: Readonly<Record<string, string>>): HeaderView => ({ get: (name) => headers[name] });

/** `planEncoding` for a header record (lower-case names). */
export const planForRecord = (acceptEncoding: string | null | undefined, status: number, headers: Readonly<Record<string, string>>, bodyLength: number | null): EncodingPlan =>
  planEncoding(acceptEncoding, status, recordView(headers), bodyLength);

/**
 * A node:http answer (lower-case header names) encoded for the request: the headers to write and
 * the body to send. `owner` marks a kept answer (a prepared body, a cached page): its compressed
 * bytes are made once and kept with it; without one the body is compressed for this request.
 */
export function encodeForNode(
  acceptEncoding: string | null | undefined,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: Buffer | null,
  owner: object | null,
): NodeAnswer | Promise<NodeAnswer> {
  const plan = planForRecord(acceptEncoding, status, headers, body ? body.length : 0);
  // Nothing to compress: answered in the same turn (the fast lane's identity answers stay synchronous).
  if (!plan.coding || !body) return { headers: plan === AS_IT_IS ? { ...headers } : applyPlan(headers, plan), body };
  const coding = plan.coding;
  return (owner ? keptVariant(owner, body, coding) : compress(body, coding, 'per-request')).then((compressed) => ({ headers: applyPlan(headers, plan), body: compressed }));
}

/** What a node:http lane writes: headers (lower-case names) and the body. */
export interface NodeAnswer {
  readonly headers: Record<string, string>;
  readonly body: Buffer | null;
}

/**
 * The Astro lane's answers: a Response compressed for the request (a new Response when anything
 * changes). The body is read whole (rendering has finished when it returns: the pages are made in
 * memory) and compressed per request (a cached public page keeps its compressed forms itself:
 * src/server/pageCache).
 */
export async function compressResponse(request: { readonly method: string; readonly headers: HeaderView }, response: Response): Promise<Response> {
  if (!negotiable(response.status, response.headers)) return response;
  const acceptEncoding = request.headers.get('accept-encoding');
  const body = response.status !== 304 && response.body ? new Uint8Array(await response.arrayBuffer()) : null;
  const plan = planEncoding(acceptEncoding, response.status, response.headers, body ? body.byteLength : 0);
  const headers = new Headers(response.headers);
  for (const name of plan.remove) headers.delete(name);
  for (const [name, value] of Object.entries(plan.set)) headers.set(name, value);
  if (response.status === 304) return new Response(null, { status: 304, statusText: response.statusText, headers });
  const sent = body && plan.coding ? await compress(body, plan.coding, 'per-request') : body;
  if (sent) headers.set('content-length', String(sent.byteLength));
  return new Response(request.method === 'HEAD' ? null : sent && Uint8Array.from(sent), { status: response.status, statusText: response.statusText, headers });
}
