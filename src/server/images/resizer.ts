/**
 * The `/_image` handler around a resize (Astro's Node image endpoint in ./endpoint.ts; a
 * stand-in in tests): the site's rules (src/lib/images.ts) before any file is read, at most
 * RESIZE_CONCURRENCY resizes at once with RESIZE_QUEUE waiting (a third core's worth of sharp
 * would slow every page), 503 with Retry-After past the queue, and a bounded in-memory cache of
 * finished resizes, so a popular picture costs one resize per process, not one per visitor.
 */
import type { APIContext, APIRoute } from 'astro';
import { canonicalImageQuery, imageRequestProblem } from '../../lib/images.ts';
import { createLimiter, type Limiter } from '../../lib/limiter.ts';
import { jsonError } from '../http/responses.ts';

/** Resizes at once: the machine's cores are for pages too. */
export const RESIZE_CONCURRENCY = 2;
/** Requests that may wait for a slot; more are told to come back. */
export const RESIZE_QUEUE = 16;
/** The cache's bound (bytes of image data). Every variant the site links to fits many times. */
const CACHE_BYTES = 32 * 1024 * 1024;

export interface ImageEndpointOptions {
  /** One resize: the answer of Astro's image endpoint for this request. */
  readonly resize: (context: APIContext) => Promise<Response>;
  readonly concurrency?: number;
  readonly queue?: number;
  readonly cacheBytes?: number;
}

interface Cached {
  readonly body: Uint8Array;
  readonly headers: [string, string][];
}

export function createImageEndpoint({ resize, concurrency = RESIZE_CONCURRENCY, queue = RESIZE_QUEUE, cacheBytes = CACHE_BYTES }: ImageEndpointOptions): {
  readonly GET: APIRoute;
  readonly limiter: Limiter;
} {
  const limiter = createLimiter({ concurrency, queue });
  /** Insertion-ordered: a hit moves to the end, the front is evicted first. */
  const cache = new Map<string, Cached>();
  let cachedBytes = 0;

  function remember(key: string, entry: Cached): void {
    if (entry.body.byteLength > cacheBytes / 4) return;
    cache.set(key, entry);
    cachedBytes += entry.body.byteLength;
    for (const [oldKey, old] of cache) {
      if (cachedBytes <= cacheBytes) break;
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

  const GET: APIRoute = async (context) => {
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
      const response = await resize(context);
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

  return { GET, limiter };
}
