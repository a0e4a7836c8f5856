/**
 * Where the page cache (./cache.ts) meets the request path:
 *
 * - `admitToPageCache` (called by the Astro lane, src/server/lanes/astroLane.ts): the gate's
 *   verdict was `serve` for a caller without any session cookie, on a route kind ./routes.ts keeps.
 *   Only such a render may be kept: a request with a session cookie never fills the cache, and a
 *   page that varies by viewer is not a kept route kind.
 * - `createPageAnswers` (the outermost Astro middleware, src/middleware.ts): keeps an admitted
 *   render (a 200 GET that says `Cache-Control: public`, sets no cookie and names no viewer) and
 *   sends every answer compressed for its request (src/server/edge/compression.ts).
 * - `createPageCacheLane` (the server entry, src/server/entry/serve.ts, after the gate's screen):
 *   answers GET and HEAD of a kept page for a request without a session cookie from memory, with
 *   304 for a matching If-None-Match; anything else goes on to the built files and Astro.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'astro';
import { decide } from '../../lib/access/policy.ts';
import { cookieHeaderSource, credentialsOf } from '../edge/caller.ts';
import { applyPlan, compressResponse, encodeForNode, negotiateEncoding, planForRecord } from '../edge/compression.ts';
import type { Passage } from '../edge/gate.ts';
import { matchesIfNoneMatch } from '../http/json.ts';
import type { NodeLane } from '../lanes/fastLane.ts';
import type { CachedPage, PageCache } from './cache.ts';
import { isCachedRoute } from './routes.ts';

/** Requests whose render may be kept: the Astro lane's word, read by the outermost middleware. */
const admitted = new WeakSet<Request>();

/** The Astro lane, after `admit`: may this request's page be kept? */
export function admitToPageCache(request: Request, passage: Passage, pathname: string): void {
  const { caller, verdict } = passage;
  if (verdict.kind !== 'serve' || passage.api || request.method !== 'GET') return;
  // No session cookie at all (not even one that failed to verify), and nobody unchecked.
  if (caller.credentials.sessionCookie !== undefined || caller.session || caller.unchecked) return;
  if (isCachedRoute(pathname)) admitted.add(request);
}

/**
 * A kept page's key: what the page depends on in the request. Not the Host: absolute links come
 * from the configured site (astro.config.mjs always sets `site`), never from the request.
 */
export const pageKey = (pathname: string, search: string): string => `${pathname}${search === '?' ? '' : search}`;

/** Headers a kept page does not keep: the connection's, the length (per encoding) and the date. */
const NOT_KEPT = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

const sharedCacheMayKeep = (cacheControl: string | null): boolean => /^\s*public\b/i.test(cacheControl ?? '');

/** The cookies Astro will add to the answer (AstroCookies' own list of what was set). */
function setsCookies(cookies: unknown): boolean {
  const outgoing = (cookies as { headers?: () => Iterable<string> } | undefined)?.headers?.();
  if (!outgoing) return false;
  for (const _ of outgoing) return true;
  return false;
}

/** A kept page's answer to a request: 304 when it has the page, else the bytes in its encoding. */
async function answerOf(
  page: CachedPage,
  kept: boolean,
  method: string,
  acceptEncoding: string | null | undefined,
  ifNoneMatch: string | null | undefined,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer | null }> {
  if (page.etag && matchesIfNoneMatch(ifNoneMatch ?? null, page.etag)) {
    return { status: 304, headers: applyPlan(page.headers, planForRecord(acceptEncoding, 304, page.headers, null)), body: null };
  }
  const encoded = kept ? await keptAnswer(page, acceptEncoding) : await encodedFor(page, acceptEncoding, null);
  return { status: 200, headers: encoded.headers, body: method === 'HEAD' ? null : encoded.body };
}

interface Encoded {
  readonly headers: Record<string, string>;
  readonly body: Buffer | null;
}

/** The page's bytes and headers for an Accept-Encoding; `owner` keeps the compressed bytes with the page. */
async function encodedFor(page: CachedPage, acceptEncoding: string | null | undefined, owner: CachedPage | null): Promise<Encoded> {
  const encoded = await encodeForNode(acceptEncoding, 200, page.headers, page.body, owner);
  encoded.headers['content-length'] = String(encoded.body?.length ?? 0);
  return encoded;
}

/** A kept page's answer per negotiated coding, made once (headers and bytes: node:http only reads them). */
const keptAnswers = new WeakMap<CachedPage, Map<string, Promise<Encoded>>>();

function keptAnswer(page: CachedPage, acceptEncoding: string | null | undefined): Promise<Encoded> {
  let answers = keptAnswers.get(page);
  if (!answers) keptAnswers.set(page, (answers = new Map()));
  // What the answer depends on in the request: the coding it negotiates (none: identity).
  const key = negotiateEncoding(acceptEncoding) ?? 'identity';
  let answer = answers.get(key);
  if (!answer) {
    answer = encodedFor(page, acceptEncoding, page);
    answers.set(key, answer);
    answer.catch(() => answers.delete(key));
  }
  return answer;
}

/** The outermost Astro middleware: keeps admitted renders, and compresses every answer. */
export function createPageAnswers(cache: PageCache): MiddlewareHandler {
  return async (context, next) => {
    // Prerendered pages are written to files at build time: as they are.
    if (context.isPrerendered) return next();
    const generation = cache.generation();
    const response = await next();
    const { request } = context;
    if (
      admitted.has(request) &&
      response.status === 200 &&
      sharedCacheMayKeep(response.headers.get('cache-control')) &&
      !response.headers.has('set-cookie') &&
      !response.headers.has('x-polyindex-viewer') &&
      !response.headers.has('content-encoding') &&
      !setsCookies(context.cookies)
    ) {
      const body = Buffer.from(await response.arrayBuffer());
      const headers: Record<string, string> = {};
      for (const [name, value] of response.headers) if (!NOT_KEPT.has(name)) headers[name] = value;
      const kept = cache.keep(pageKey(context.url.pathname, context.url.search), { headers, body }, generation);
      const page = kept ?? { headers, body, etag: headers['etag'] ?? null, storedAt: 0, generation };
      const answer = await answerOf(page, kept !== null, request.method, request.headers.get('accept-encoding'), request.headers.get('if-none-match'));
      return new Response(answer.body && Uint8Array.from(answer.body), { status: answer.status, headers: answer.headers });
    }
    return compressResponse(request, response);
  };
}

/** The node:http lane of kept pages (after the gate's screen). */
export function createPageCacheLane(cache: PageCache, { now = () => new Date() }: { readonly now?: () => Date } = {}): NodeLane {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const pathname = q < 0 ? raw : raw.slice(0, q);
    if (!isCachedRoute(pathname)) return false;
    // A session cookie (valid or not) is never answered from memory: Astro renders for it.
    if (credentialsOf(cookieHeaderSource(req.headers.cookie)).sessionCookie !== undefined) return false;
    const search = q < 0 ? '' : raw.slice(q);
    // The gate's verdict for a caller without credentials is the policy's for an anonymous visitor.
    if (decide(pathname, null, now(), search).kind !== 'allow') return false;
    const page = cache.lookup(pageKey(pathname, search));
    if (!page) return false;
    void answerOf(page, true, req.method, req.headers['accept-encoding'], req.headers['if-none-match']).then(
      (answer) => {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      },
      (error: unknown) => {
        console.error(`[page-cache] ${req.method} ${raw} failed:`, error);
        if (res.headersSent) return void res.destroy();
        res.writeHead(500);
        res.end();
      },
    );
    return true;
  };
}
