/**
 * `/_image` (astro.config.mjs `image.endpoint`): Astro's own Node image endpoint behind the
 * site's rules (src/lib/images.ts). A request our pages never make is a 4xx naming the
 * parameter, before any file is read. Resizes run two at a time with a short queue (a third
 * core's worth of sharp would slow every page); past the queue the answer is 503 with
 * Retry-After. Finished resizes are kept in a bounded in-memory cache, so a popular picture
 * costs one resize per process, not one per visitor.
 */
import type { APIRoute } from 'astro';
import { GET as astroImageEndpoint } from 'astro/assets/endpoint/node';
import { canonicalImageQuery, imageRequestProblem } from '../../lib/images.ts';
import { createLimiter } from '../../lib/limiter.ts';
import { jsonError } from '../http/responses.ts';

/** Resizes at once: the machine's cores are for pages too. */
const RESIZE_CONCURRENCY = 2;
/** Requests that may wait for a slot; more are told to come back. */
const RESIZE_QUEUE = 16;
/** The cache's bound (bytes of image data). Every variant the site links to fits many times. */
const CACHE_BYTES = 32 * 1024 * 1024;

const limiter = createLimiter({ concurrency: RESIZE_CONCURRENCY, queue: RESIZE_QUEUE });

interface Cached {
  readonly body: Uint8Array;
  readonly headers: [string, string][];
}
/** Insertion-ordered: a hit moves to the end, the front is evicted first. */
const cache = new Map<string, Cached>();
let cachedBytes = 0;

function remember(key: string, entry: Cached): void {
  if (entry.body.byteLength > CACHE_BYTES / 4) return;
  cache.set(key, entry);
  cachedBytes += entry.body.byteLength;
  for (const [oldKey, old] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(oldKey);
    cachedBytes -= old.body.byteLength;
  }
}

function recall(key: string): Cached | undefined {
  const entry = cache.get(key);
  if (entry) {
    cache.delete(key);
    cache.set(key, entry);
  }
  return entry;
}

const answer = (entry: Cached): Response => new Response(entry.body.slice(), { status: 200, headers: entry.headers });

export const GET: APIRoute = async (context) => {
  const params = context.url.searchParams;
  const problem = imageRequestProblem(params);
  if (problem) return jsonError(problem.status, problem.code, problem.message, problem.field);

  const key = canonicalImageQuery(params);
  const hit = recall(key);
  if (hit) return answer(hit);

  const result = await limiter.run(async () => {
    // Two waiters for one picture: the second finds the first one's result.
    const done = recall(key);
    if (done) return answer(done);
    const response = await astroImageEndpoint(context);
    if (response.status === 200) {
      const body = new Uint8Array(await response.arrayBuffer());
      const entry: Cached = { body, headers: [...response.headers] };
      remember(key, entry);
      return answer(entry);
    }
    return response;
  });
  if (!result.ok) {
    return new Response(JSON.stringify({ error: { code: 'busy', message: 'Too many pictures are being prepared: try again in a moment.' } }), {
      status: 503,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '1' },
    });
  }
  const response = result.value;
  // Astro's own answers for a file that is not there, or a path it will not read, are plain
  // text: give them the house shape. Anything ≥ 500 here is a fault of ours and stays one.
  if (response.status === 404) return jsonError(404, 'unknown_image', 'There is no such image.', 'href');
  if (response.status >= 400 && response.status < 500) return jsonError(400, 'invalid_input', (await response.text()) || 'This image cannot be resized.', 'href');
  return response;
};
