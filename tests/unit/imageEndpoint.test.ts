/**
 * `/_image` bounds its resizes (issue 15, finding 3): with every resize held open by the test,
 * at most RESIZE_CONCURRENCY run, RESIZE_QUEUE wait, and the rest are turned away at once with
 * 503 and Retry-After; each finished resize lets exactly one waiter start; a finished variant is
 * answered from the cache without another resize. No clock: the resize is a stand-in that ends
 * when the test opens it.
 */
import type { APIContext } from 'astro';
import { describe, expect, it } from 'vitest';
import { createImageEndpoint, RESIZE_CONCURRENCY, RESIZE_QUEUE } from '../../src/server/images/resizer.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A resize stand-in: each call waits until the test opens it, then answers a tiny "image". */
function heldResizes() {
  const held: { query: string; open: () => void }[] = [];
  let running = 0;
  let most = 0;
  const resize = async (context: APIContext): Promise<Response> => {
    running += 1;
    most = Math.max(most, running);
    await new Promise<void>((open) => held.push({ query: context.url.search, open }));
    running -= 1;
    return new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'Content-Type': 'image/webp' } });
  };
  return { resize, held, calls: () => held.length, most: () => most };
}

const request = (GET: ReturnType<typeof createImageEndpoint>['GET'], query: string) => {
  const url = new URL(`http://127.0.0.1:4321/_image?${query}`);
  return Promise.resolve(GET({ url, request: new Request(url), params: {}, locals: {} } as unknown as APIContext));
};
const picture = (n: number) => `href=${encodeURIComponent(`/_astro/delegation-${n}.abc123.jpg`)}&w=800&f=webp`;

describe('/_image under a burst of distinct resizes', () => {
  it(`runs ${RESIZE_CONCURRENCY} at once, queues ${RESIZE_QUEUE}, turns the rest away with 503 at once; each finish starts one more`, async () => {
    const resizes = heldResizes();
    const { GET, limiter } = createImageEndpoint({ resize: resizes.resize });
    const burst = RESIZE_CONCURRENCY + RESIZE_QUEUE + 3;
    const answers = Array.from({ length: burst }, (_, n) => request(GET, picture(n)));
    await tick();

    expect(resizes.calls()).toBe(RESIZE_CONCURRENCY);
    expect(limiter.load()).toEqual({ running: RESIZE_CONCURRENCY, waiting: RESIZE_QUEUE });
    // The three beyond the line are answered now, while every resize is still held.
    for (const turnedAway of answers.slice(RESIZE_CONCURRENCY + RESIZE_QUEUE)) {
      const response = await turnedAway;
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(await response.json()).toMatchObject({ error: { code: 'busy' } });
    }

    // Open one resize at a time: exactly one waiter takes its slot.
    for (let opened = 0; opened < RESIZE_CONCURRENCY + RESIZE_QUEUE; opened++) {
      resizes.held[opened]!.open();
      expect((await answers[opened]!).status).toBe(200);
      await tick();
      expect(resizes.calls()).toBe(Math.min(RESIZE_CONCURRENCY + opened + 1, RESIZE_CONCURRENCY + RESIZE_QUEUE));
    }
    expect(resizes.most()).toBe(RESIZE_CONCURRENCY);
    expect(limiter.load()).toEqual({ running: 0, waiting: 0 });

    // A finished variant comes from the cache: no resize, even with the line free.
    const again = await request(GET, picture(0));
    expect(again.status).toBe(200);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(resizes.calls()).toBe(RESIZE_CONCURRENCY + RESIZE_QUEUE);
    // A variant turned away earlier is resized once it is asked again.
    const retried = request(GET, picture(burst - 1));
    await tick();
    expect(resizes.calls()).toBe(RESIZE_CONCURRENCY + RESIZE_QUEUE + 1);
    resizes.held.at(-1)!.open();
    expect((await retried).status).toBe(200);
  });

  it('a refused request never reaches the resize, and never takes a slot', async () => {
    const resizes = heldResizes();
    const { GET, limiter } = createImageEndpoint({ resize: resizes.resize });
    for (const query of ['href=/favicon.svg&w=400&f=png', `href=${encodeURIComponent('https://elsewhere.example/a.jpg')}&w=400&f=webp`, 'href=/_astro/a.abc.jpg&w=401&f=webp']) {
      expect((await request(GET, query)).status).toBeGreaterThanOrEqual(400);
    }
    expect(resizes.calls()).toBe(0);
    expect(limiter.load()).toEqual({ running: 0, waiting: 0 });
  });
});
