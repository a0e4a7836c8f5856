/**
 * `/_image` (issue 15, finding 3): the pictures our pages link to are served; anything a page
 * never asks for (an SVG source, a bad width, quality or format, a remote URL, an 8000 × 8000
 * AVIF) is a 4xx naming the parameter, never a 500, and costs no resize.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { signInAs } from './helpers/auth.ts';

/** The picture URLs (src and every srcset candidate) of a delegation page, as Chromium got them. */
async function delegationPictureUrls(page: import('@playwright/test').Page): Promise<string[]> {
  // The navigation links every event (/vip-delegations/{year}/{event}); the first will do.
  await page.goto('/');
  const event = await page.locator('a[href^="/vip-delegations/20"]').evaluateAll((as) =>
    as.map((a) => a.getAttribute('href')!).find((href) => href.split('/').length === 4),
  );
  expect(event, 'a delegation event link').toBeTruthy();
  await page.goto(event!);
  const images = page.locator('.photos img');
  await expect(images.first()).toBeVisible();
  await images.first().scrollIntoViewIfNeeded();
  // Lazy pictures: poll until the browser has decoded the ones in view.
  await expect.poll(() => images.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 20_000 }).toBe(true);
  return images.evaluateAll((imgs) =>
    (imgs as HTMLImageElement[]).flatMap((img) => [img.getAttribute('src')!, ...(img.getAttribute('srcset') ?? '').split(',').map((c) => c.trim().split(/\s+/)[0]!)]).filter(Boolean),
  );
}

async function expectRefused(request: APIRequestContext, query: string, status: number, field: string) {
  const response = await request.get(`/_image?${query}`);
  expect(response.status(), query).toBe(status);
  expect(response.headers()['content-type'], query).toContain('application/json');
  const { error } = (await response.json()) as { error: { code: string; message: string; field: string } };
  expect(error.field, query).toBe(field);
  expect(error.message.length, query).toBeGreaterThan(10);
}

test('the pictures a page links to are served; requests no page makes are refused with a reason, never a 500', async ({ page, context, request }) => {
  test.slow(); // the first resizes of each picture run sharp on a shared machine
  await signInAs(context, 'free@polyindex.test');
  const urls = await delegationPictureUrls(page);
  expect(urls.length).toBeGreaterThanOrEqual(6);
  for (const url of urls) {
    expect(url).toMatch(/^\/_image\?/);
    const response = await request.get(url);
    expect(response.status(), url).toBe(200);
    expect(response.headers()['content-type'], url).toBe('image/webp');
  }

  const href = new URL(urls[0]!, 'http://x').searchParams.get('href')!;
  const png = `href=${encodeURIComponent(href)}`;
  await expectRefused(request, 'href=/favicon.svg&w=400&f=png', 400, 'href');
  await expectRefused(request, 'href=https://example.com/a.png&w=400&f=webp', 400, 'href');
  await expectRefused(request, 'href=/_astro/nothing-here.abc123.png&w=400&f=webp', 404, 'href');
  await expectRefused(request, `${png}&w=abc&f=webp`, 400, 'w');
  await expectRefused(request, `${png}&w=8000&h=8000&f=avif`, 400, 'w');
  await expectRefused(request, `${png}&w=400&f=bogus`, 400, 'f');
  await expectRefused(request, `${png}&w=400&f=avif`, 400, 'f');
  await expectRefused(request, `${png}&w=400&f=webp&q=abc`, 400, 'q');
  await expectRefused(request, `${png}&w=400&f=webp&q=100`, 400, 'q');
  await expectRefused(request, `${png}&w=400&h=9000&f=webp`, 400, 'h');
});

// The bound itself (2 at once, 16 waiting, 503 past that) is proven with held resizes in
// tests/unit/imageEndpoint.test.ts: a real burst may all be served in time. Here: never a 500.
test('a burst of resizes is queued or turned away with 503, never a 500', async ({ page, context, playwright }) => {
  test.slow();
  await signInAs(context, 'free@polyindex.test');
  const hrefs = [...new Set((await delegationPictureUrls(page)).map((url) => new URL(url, 'http://x').searchParams.get('href')!))];
  // Every width × format of those pictures at once, from an anonymous visitor (/_image is public).
  const anonymous = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  const queries = hrefs.flatMap((href) => [400, 480, 800, 960, 1200].flatMap((w) => ['webp', 'png'].map((f) => `href=${encodeURIComponent(href)}&w=${w}&f=${f}`)));
  expect(queries.length).toBeGreaterThanOrEqual(20);
  const statuses = await Promise.all(queries.map(async (query) => (await anonymous.get(`/_image?${query}`)).status()));
  await anonymous.dispose();
  for (const status of statuses) expect([200, 503]).toContain(status);
  expect(statuses).toContain(200);
});
