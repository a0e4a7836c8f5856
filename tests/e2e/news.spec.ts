import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { isPublicPath } from '../../src/lib/access/publicPaths.ts';
import { E2E_DATA_DIR } from './env.ts';
import { signInAs } from './helpers/auth.ts';

const PUBLIC = '/news/2026-11-21-how-to-read-cif-nhava-sheva-landed-cost';
const PREMIUM = '/news/2026-11-10-pvc-outlook-post-diwali';
/** A sentence from the premium post's last section: never on a public page. */
const PREMIUM_BODY = 'Pipe and profile makers should buy only what they need';

async function jsonLdOf(page: Page): Promise<Record<string, unknown>> {
  const text = await page.locator('script[type="application/ld+json"]').textContent();
  return JSON.parse(text ?? '') as Record<string, unknown>;
}

/** Parses XML in the browser (DOMParser): a feed that is not well-formed XML fails here. */
async function fetchXml(page: Page, path: string) {
  return page.evaluate(async (url) => {
    const text = await (await fetch(url)).text();
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    if (doc.querySelector('parsererror')) throw new Error(`${url} is not well-formed XML`);
    const items = [...doc.querySelectorAll('item')].map((item) => ({
      link: item.querySelector('link')?.textContent ?? '',
      categories: [...item.querySelectorAll('category')].map((c) => c.textContent ?? ''),
      content: item.getElementsByTagNameNS('http://purl.org/rss/1.0/modules/content/', 'encoded')[0]?.textContent ?? null,
      description: item.querySelector('description')?.textContent ?? '',
    }));
    const locs = [...doc.getElementsByTagName('loc')].map((l) => l.textContent ?? '');
    return { root: doc.documentElement.nodeName, items, locs, text };
  }, path);
}

test.describe('an anonymous visitor', () => {
  test('reads a public article with structured data, social cards and a canonical URL', async ({ page }) => {
    const response = await page.goto(PUBLIC);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('From CIF Nhava Sheva to your factory gate: working out landed cost');
    await expect(page.getByRole('link', { name: 'import calculator' })).toHaveAttribute('href', '/indian-bazaar/importCalculation');
    await expect(page.getByTestId('paywall')).toHaveCount(0);

    const ld = await jsonLdOf(page);
    expect(ld).toMatchObject({ '@context': 'https://schema.org', '@type': 'NewsArticle', datePublished: '2026-11-21', isAccessibleForFree: true });
    expect(ld['hasPart']).toBeUndefined();
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(new URL(canonical!).pathname).toBe(`${PUBLIC}/`);
    expect(ld['url']).toBe(canonical);
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', canonical!);
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    const image = new URL((await page.locator('meta[property="og:image"]').getAttribute('content'))!);
    expect((await page.request.get(`${image.pathname}${image.search}`)).status()).toBe(200);
    // Rendered on demand from the store, kept a minute by shared caches, with a validator.
    expect(response?.headers()['cache-control']).toBe('public, s-maxage=60, stale-while-revalidate=600');
    const etag = response?.headers()['etag'];
    expect(etag).toBeTruthy();
    expect((await page.request.get(PUBLIC, { headers: { 'If-None-Match': etag! } })).status()).toBe(304);
  });

  test('meets the paywall on a premium article, and is asked to sign in for the full text', async ({ page }) => {
    await page.goto(PREMIUM);
    await expect(page.getByTestId('paywall')).toBeVisible();
    // Title, summary and the paywall: nothing of the body, not even its first paragraph (issue 12).
    await expect(page.getByText(/^With pipe makers well stocked/)).toBeVisible();
    await expect(page.getByText('Direction: down.')).toHaveCount(0);
    expect(await page.content()).not.toContain(PREMIUM_BODY);
    expect(await page.content()).not.toContain('Rs 73.50–74.50/kg');
    const ld = await jsonLdOf(page);
    expect(ld).toMatchObject({ '@type': 'NewsArticle', isAccessibleForFree: false, hasPart: { '@type': 'WebPageElement', isAccessibleForFree: false } });
    const selector = (ld['hasPart'] as { cssSelector: string }).cssSelector;
    await expect(page.locator(selector)).toHaveCount(1);

    await page.getByRole('link', { name: 'Read the full article' }).click();
    await expect(page).toHaveURL(`/register?next=${encodeURIComponent(`${PREMIUM}/full`)}`);
    const direct = await page.request.get(`${PREMIUM}/full`, { maxRedirects: 0 });
    expect(direct.status()).toBe(302);
    expect(await direct.text()).not.toContain(PREMIUM_BODY);
  });

  test('browses news by type and page; the footer links the daily tweets', async ({ page }) => {
    await page.goto('/news');
    await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Older →' }).click();
    await expect(page).toHaveURL(/\/news\/page\/2$/);
    await expect(page.getByText(/^Page 2$/)).toBeVisible();

    await page.getByRole('contentinfo').getByRole('link', { name: 'Daily tweets' }).click();
    await expect(page).toHaveURL(/\/news\/type\/daily-tweet$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Daily tweets' })).toBeVisible();
    const dates = await page.getByTestId('post-list').locator('time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')!));
    expect(dates.length).toBeGreaterThan(1);
    expect(dates).toEqual(dates.toSorted().reverse());

    expect((await page.goto('/news/type/future-trend/PP'))?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Future trend: Polypropylene (PP)');
  });

  test('finds the news through RSS: public items in full, premium items as a summary', async ({ page }) => {
    await page.goto('/');
    const feed = await fetchXml(page, '/rss.xml');
    expect(feed.root).toBe('rss');
    const links = feed.items.map((i) => new URL(i.link).pathname);
    expect(links).toContain(`${PUBLIC}/`);
    expect(links).toContain(`${PREMIUM}/`);
    const premium = feed.items.find((i) => new URL(i.link).pathname === `${PREMIUM}/`)!;
    expect(premium.categories).toContain('Premium');
    expect(premium.content).toBeNull();
    expect(premium.description).toMatch(/^With pipe makers well stocked/);
    expect(feed.text).not.toContain(PREMIUM_BODY);
    expect(feed.items.find((i) => new URL(i.link).pathname === `${PUBLIC}/`)?.content).toContain('import calculator');
    await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveCount(0);
    await page.goto('/news');
    await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute('href', '/rss.xml');
  });

  test('finds the sitemap through robots.txt; it lists public pages and public posts only', async ({ page }) => {
    await page.goto('/');
    const robots = await (await page.request.get('/robots.txt')).text();
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toMatch(/^Disallow: \/api\/$/m);
    const sitemapUrl = /^Sitemap: (\S+)$/m.exec(robots)?.[1];
    expect(new URL(sitemapUrl!).pathname).toBe('/sitemap-index.xml');

    const index = await fetchXml(page, '/sitemap-index.xml');
    expect(index.root).toBe('sitemapindex');
    const paths: string[] = [];
    for (const loc of index.locs) paths.push(...(await fetchXml(page, new URL(loc).pathname)).locs.map((l) => new URL(l).pathname));
    expect(paths).not.toContain(`${PREMIUM}/`);
    for (const expected of ['/', '/news/', `${PUBLIC}/`, '/news/page/2/', '/news/type/daily-tweet/', '/news/type/future-trend/PP/', '/contact/', '/terms/']) {
      expect(paths).toContain(expected);
    }
    for (const path of paths) expect(isPublicPath(path), path).toBe(true);
    for (const gated of ['/buy-sell/', '/subscription/', '/crude/', '/plant-news/', '/services/', '/vip-delegations/']) expect(paths).not.toContain(gated);
    expect(paths.filter((p) => p.endsWith('/full/') || p.startsWith('/api/'))).toEqual([]);
  });
});

test('an entitled reader (premium@) reads the full text of a premium article', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  await page.goto(PREMIUM);
  await page.getByRole('link', { name: 'Read the full article' }).click();
  await expect(page).toHaveURL(`${PREMIUM}/full`);
  await expect(page.getByTestId('premium-full-text')).toContainText(PREMIUM_BODY);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
});

test('a reader without a plan is sent to /subscription for the full text', async ({ page, context }) => {
  await signInAs(context, 'free@polyindex.test');
  await page.goto(`${PREMIUM}/full`);
  await expect(page).toHaveURL('/subscription');
});

test('a public article has no /full page to unlock: it redirects to the article', async ({ context }) => {
  await signInAs(context, 'premium@polyindex.test');
  const response = await context.request.get(`${PUBLIC}/full`, { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers()['location']).toBe(PUBLIC);
  expect((await context.request.get('/news/no-such-article/full', { maxRedirects: 0 })).status()).toBe(404);
});

const outbox = join(E2E_DATA_DIR, 'outbox');
const toOf = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address));

async function outboxMails(): Promise<ParsedMail[]> {
  let files: string[];
  try {
    files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return Promise.all(files.map((f) => simpleParser(readFileSync(join(outbox, f)))));
}

/** Mails whose text carries the test's marker: the operator's copy (confirmations echo nothing). */
const outboxMailsMentioning = async (marker: string) => (await outboxMails()).filter((m) => (m.text ?? '').includes(marker));

/** Confirmations sent to `address` since `since`; they carry no visitor text, only our template. */
const confirmationsTo = async (address: string, since: Date) =>
  (await outboxMails()).filter((m) => toOf(m).includes(address) && (m.date?.getTime() ?? 0) >= since.getTime() - 1000);

test('a contact enquiry lands in the operator\'s outbox, with a confirmation to the sender', async ({ page }) => {
  const marker = `E2E contact ${Date.now()}`;
  const sender = `kavita-${Date.now()}@example.test`;
  const started = new Date();
  await page.goto('/contact');
  const form = page.getByTestId('enquiry-contact');
  await form.getByLabel('Your name').fill('Kavita Shah');
  await form.getByLabel('E-mail').fill(sender);
  await form.getByLabel('Subject').selectOption('Price data');
  await form.getByLabel('Message').fill(`${marker}: where is <PVC K67>?`);
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(form.getByRole('status')).toContainText('Thank you');

  await expect.poll(async () => (await outboxMailsMentioning(marker)).length).toBe(1);
  const [toOperator] = await outboxMailsMentioning(marker);
  expect(toOf(toOperator!)).toEqual(['desk@polyindex.test']);
  expect(toOperator!.replyTo?.value[0]?.address).toBe(sender);
  expect(String(toOperator!.html)).toContain('where is &lt;PVC K67&gt;?');
  await expect.poll(async () => (await confirmationsTo(sender, started)).length).toBe(1);
  const [confirmation] = await confirmationsTo(sender, started);
  expect(confirmation!.subject).toBe('We received your enquiry: Write to us');
  expect(confirmation!.text).not.toContain('PVC K67');
});

test('a signed-in buyer posts a buy enquiry from /buy-sell; a bad field is shown at the field', async ({ page, context }) => {
  await signInAs(context, 'free@polyindex.test');
  const marker = `E2E lead ${Date.now()}`;
  await page.goto('/buy-sell');
  const form = page.getByTestId('enquiry-buy-sell');
  await expect(form.getByLabel('E-mail')).toHaveValue('free@polyindex.test');
  await form.getByLabel('I want to').selectOption('Buy');
  await form.getByLabel('Polymer').selectOption('HDPE');
  await form.getByLabel('Grade').fill('Blow moulding');
  await form.getByLabel('Quantity (tonnes)').fill('40');
  await form.getByLabel('City').fill('Indore');
  await form.getByLabel('Your name').fill('Farhan');
  await form.getByLabel('Phone').fill('call me maybe');
  await form.getByLabel('Details (price idea, delivery, payment terms)').fill(marker);
  await form.getByRole('button', { name: 'Send enquiry' }).click();
  await expect(form.getByText('Phone is not a phone number.')).toBeVisible();
  await expect(form.getByLabel('Phone')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Phone').fill('+91 98200 12345');
  await form.getByRole('button', { name: 'Send enquiry' }).click();
  await expect(form.getByRole('status')).toContainText('Thank you');
  await expect.poll(async () => (await outboxMailsMentioning(marker)).length).toBe(1);
  const toOperator = (await outboxMailsMentioning(marker)).find((m) => toOf(m).includes('desk@polyindex.test'))!;
  expect(toOperator.subject).toBe('[Enquiry: Post a buy or sell enquiry] Buy HDPE Blow moulding, 40 t, Indore');
  expect(toOperator.replyTo?.value[0]?.address).toBe('free@polyindex.test');
});

test('a signed-in member registers for an event from /services/events', async ({ page, context }) => {
  await signInAs(context, 'basic@polyindex.test');
  const marker = `E2E event ${Date.now()}`;
  await page.goto('/services/events');
  const form = page.getByTestId('enquiry-event-registration');
  await expect(form.getByLabel('E-mail')).toHaveValue('basic@polyindex.test');
  await form.getByLabel('Your name').fill('Bina Basic');
  await form.getByLabel('Phone').fill('+91 98200 55555');
  await form.getByLabel('City').fill('Pune');
  await form.getByLabel('Event').selectOption('Buyer–seller meet');
  await form.getByLabel('Seats').fill('3');
  await form.getByLabel('Anything we should know').fill(marker);
  await form.getByRole('button', { name: 'Register interest' }).click();
  await expect(form.getByRole('status')).toContainText('Thank you');
  await expect.poll(async () => (await outboxMailsMentioning(marker)).length).toBe(1);
  const toOperator = (await outboxMailsMentioning(marker)).find((m) => toOf(m).includes('desk@polyindex.test'))!;
  expect(toOperator.subject).toBe('[Enquiry: Register for an event] Bina Basic');
  expect(toOperator.text).toContain('Buyer–seller meet');
});

test('a VIP delegation event shows its photos through astro:assets (resized, quality 75)', async ({ page, context }) => {
  await signInAs(context, 'free@polyindex.test');
  await page.goto('/vip-delegations/2019/k-show-dusseldorf');
  const photos = page.locator('.photos img');
  await expect(photos).toHaveCount(2);
  for (const img of await photos.all()) {
    await img.scrollIntoViewIfNeeded();
    await expect(img).toHaveAttribute('alt', /^Illustration: /);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
    const srcset = (await img.getAttribute('srcset')) ?? '';
    expect(srcset).toMatch(/ 400w/);
    expect(srcset).toMatch(/ 800w/);
  }
  const src = new URL((await photos.first().getAttribute('src'))!, page.url());
  expect(src.pathname).toBe('/_image');
  expect(src.searchParams.get('w')).not.toBeNull();
  const image = await page.request.get(src.href);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/webp');
  // The default quality is 75: the same bytes as asking for q=75, unlike Sharp's own default (80).
  const at = async (q: string) => {
    const url = new URL(src);
    url.searchParams.set('q', q);
    return (await page.request.get(url.href)).body();
  };
  const bytes = await image.body();
  expect(src.searchParams.get('q')).toBeNull();
  expect(bytes.equals(await at('75'))).toBe(true);
  expect(bytes.equals(await at('80'))).toBe(false);
});

test('the year page lists its delegations newest first', async ({ page, context }) => {
  await signInAs(context, 'free@polyindex.test');
  await page.goto('/vip-delegations/2022');
  const links = await page.locator('main a[href^="/vip-delegations/2022/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(links).toEqual(['/vip-delegations/2022/k-show-dusseldorf', '/vip-delegations/2022/uae-producers-visit']);
});
