/**
 * The newsroom in Chromium, on SQLite and on Firestore (FIRESTORE_SPECS): an editor writes a
 * post, previews it, schedules it 40–100 s ahead and gives it a cover meanwhile; an anonymous
 * reader gets 404 until then, and afterwards finds it on /news, its type list, /rss.xml, the sitemap
 * (kept pages: within the page cache's minute), /api/blogs and search — all without anyone
 * touching the post again. A hostile body stays
 * inert on the page, in the feed and in a mail; an old slug answers 301; the editor role opens
 * posts and banners, nothing else.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { PAGE_TTL_MS } from '../../src/server/pageCache/cache.ts';
import { baseURL, E2E_DATA_DIR } from './env.ts';
import { signInAs, signInByApi } from './helpers/auth.ts';

const COVER = readFileSync('src/assets/og/polyindex-news.png');

/** India's wall-clock time (the editor's publish-at field) of an instant. */
function indianTime(instant: Date): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}

/** The XML of a feed or sitemap, checked well-formed in the browser. */
async function xmlText(page: Page, path: string): Promise<string> {
  return page.evaluate(async (url) => {
    const text = await (await fetch(url, { cache: 'no-store' })).text();
    if (new DOMParser().parseFromString(text, 'application/xml').querySelector('parsererror')) throw new Error(`${url} is not well-formed XML`);
    return text;
  }, path);
}

const statusOf = async (request: APIRequestContext, path: string) => (await request.get(path, { maxRedirects: 0 })).status();

/**
 * How far ahead the post is scheduled at least: room for the checks that it is not out yet
 * (a few seconds; about fifteen on a loaded machine), which must all run before its time.
 */
const LEAD_MS = 40_000;

test.describe('scheduling', () => {
  // Slow by nature: the post goes live 40 to 100 s after it is scheduled (polled, never slept);
  // the cover is added in that wait.
  test.slow();
  test.describe.configure({ timeout: 300_000 });

  test('an editor writes, previews and schedules a post with a cover; it appears on time everywhere', async ({ page, browser }) => {
    // The minute field: the first whole minute at least LEAD_MS away (at most a minute more).
    const marker = `Kandla${Date.now().toString(36)}`;
    const title = `Kandla terminal resumes PP handling ${marker}`;
    await signInAs(page, 'editor@polyindex.test');
    await page.goto('/admin/posts');
    await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link')).toHaveText(['Posts', 'Forecasts', 'Banners']);
    await page.getByRole('link', { name: 'New post' }).click();
    await expect(page).toHaveURL('/admin/posts/new');
    const form = page.locator('form[data-post-form]');
    await expect(form).toHaveAttribute('data-ready', 'true');
    await form.getByLabel('Type').selectOption('plant-news');
    await form.getByLabel('Title').fill(title);
    await form.getByLabel(/^Summary/).fill(`The Kandla terminal handles polypropylene again after repairs (${marker}).`);
    await form.getByLabel(/^Body/).fill(`Operations **restarted** on Monday.\n\n| Grade | Rs/kg |\n|---|---|\n| PP raffia | 104.50 |\n\nSearch word: ${marker}.`);
    // The live preview is the site's own renderer.
    await expect(page.getByTestId('preview').locator('strong')).toHaveText('restarted');
    await expect(page.getByTestId('preview').locator('td').first()).toHaveText('PP raffia');
    await form.getByRole('button', { name: 'Save draft' }).click();
    await expect(page).toHaveURL(/\/admin\/posts\/[0-9a-f-]{36}\?done=post-created$/);
    await expect(page.getByTestId('post-status')).toHaveAttribute('data-status', 'draft');

    // A time in the past is refused at the field; a minute ahead is taken.
    const slug = (await page.getByLabel(/^Slug/).inputValue()).trim();
    await page.getByLabel(/^Publish at/).fill(indianTime(new Date(Date.now() - 3_600_000)));
    await page.getByRole('button', { name: 'Schedule' }).click();
    await expect(page.locator('form[data-post-form] [data-form-status]')).toContainText('future');
    await expect(page.getByLabel(/^Publish at/)).toHaveAttribute('aria-invalid', 'true');
    const goesLive = new Date(Math.ceil((Date.now() + LEAD_MS) / 60_000) * 60_000);
    await page.getByLabel(/^Publish at/).fill(indianTime(goesLive));
    await page.getByRole('button', { name: 'Schedule' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Post scheduled.' })).toBeVisible();
    await expect(page.getByTestId('post-status')).toHaveAttribute('data-status', 'scheduled');

    // Before its time: 404 for an anonymous reader, nowhere in the lists, feed, sitemap, API or
    // search. Always checked: the schedule is at least LEAD_MS ahead, and the checks must all
    // have run before it (else this run proved nothing about "before", and says so).
    const reader = await browser.newContext();
    const anonymous = await reader.newPage();
    await anonymous.goto('/');
    expect(await statusOf(anonymous.request, `/news/${slug}`)).toBe(404);
    expect(await (await anonymous.request.get('/news')).text()).not.toContain(title);
    expect(await (await anonymous.request.get('/news/type/plant-news')).text()).not.toContain(title);
    expect(await xmlText(anonymous, '/rss.xml')).not.toContain(`/news/${slug}/`);
    expect(await xmlText(anonymous, '/sitemap-0.xml')).not.toContain(`/news/${slug}/`);
    expect(await (await anonymous.request.get(`/news/search?q=${marker}`)).text()).not.toContain(title);
    const early = await browser.newContext();
    await signInByApi(early.request, 'premium@polyindex.test');
    const blogsBefore = (await (await early.request.get('/api/blogs?type=PlantNews')).json()) as { data: { slug: string }[] };
    expect(blogsBefore.data.map((b) => b.slug)).not.toContain(slug);
    await early.close();
    expect(Date.now(), 'the checks before publishAt ran before it').toBeLessThan(goesLive.getTime());

    // While it waits for its time, a cover for the scheduled post: refused without alt text,
    // then stored and shown in the preview (and on the live article below).
    const coverForm = page.locator('form[data-cover-form]');
    await expect(coverForm).toHaveAttribute('data-ready', 'true');
    await coverForm.getByLabel('Image', { exact: true }).setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: COVER });
    await coverForm.getByLabel(/^Alt text/).evaluate((input: HTMLInputElement) => input.removeAttribute('required'));
    await coverForm.getByRole('button', { name: 'Upload cover' }).click();
    await expect(coverForm.locator('[data-form-status]')).toContainText('alt text');
    await coverForm.getByLabel(/^Alt text/).fill('PolyIndex news card over the Kandla terminal');
    await coverForm.getByRole('button', { name: 'Upload cover' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Cover saved.' })).toBeVisible();
    await expect(page.getByTestId('cover-preview')).toHaveAttribute('alt', 'PolyIndex news card over the Kandla terminal');
    await expect(page.getByTestId('post-status')).toHaveAttribute('data-status', 'scheduled');

    // At its time it is live on every page, with nothing written by anyone: poll, never sleep.
    await expect.poll(() => statusOf(anonymous.request, `/news/${slug}`), { timeout: 180_000, intervals: [2_000, 5_000] }).toBe(200);
    expect(Date.now()).toBeGreaterThanOrEqual(goesLive.getTime() - 1_000);
    const article = await anonymous.goto(`/news/${slug}`);
    expect(article?.headers()['cache-control']).toBe('public, s-maxage=60, stale-while-revalidate=600');
    await expect(anonymous.getByRole('heading', { level: 1 })).toHaveText(title);
    const cover = anonymous.locator('article img.cover');
    await expect(cover).toHaveAttribute('alt', 'PolyIndex news card over the Kandla terminal');
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    const ld = JSON.parse((await anonymous.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as Record<string, unknown>;
    expect(ld).toMatchObject({ '@type': 'NewsArticle', headline: title, isAccessibleForFree: true });
    expect(String((ld['image'] as string[])[0])).toContain('/news/images/');

    // The lists, the feed and the sitemap are kept pages (src/server/pageCache): one rendered
    // just before the post's minute (by another spec's visit, or a reader's) is served for at
    // most PAGE_TTL_MS, as shared caches may keep it (s-maxage=60). So each shows the post
    // within that bound after its minute: polled, never slept.
    const within = { timeout: PAGE_TTL_MS + 30_000, intervals: [1_000, 2_000, 5_000] };
    for (const path of ['/news', '/news/type/plant-news']) {
      await expect.poll(async () => (await anonymous.request.get(path)).text(), within).toContain(title);
      await anonymous.goto(path);
      await expect(anonymous.getByTestId('post-list').getByRole('link', { name: title })).toBeVisible();
    }
    await expect.poll(() => xmlText(anonymous, '/rss.xml'), within).toContain(`/news/${slug}/`);
    await expect.poll(() => xmlText(anonymous, '/sitemap-0.xml'), within).toContain(`/news/${slug}/`);
    await anonymous.goto('/news');
    await anonymous.getByLabel('Search the news').fill(marker);
    await anonymous.getByRole('button', { name: 'Search' }).click();
    await expect(anonymous).toHaveURL(`/news/search?q=${marker}`);
    await expect(anonymous.getByTestId('post-list').getByRole('link', { name: title })).toBeVisible();
    await reader.close();

    // The legacy API, for an account with full access, by the original's type name.
    const subscriber = await browser.newContext();
    await signInByApi(subscriber.request, 'premium@polyindex.test');
    const blogs = (await (await subscriber.request.get('/api/blogs?type=PlantNews')).json()) as { data: { slug: string; title: string; type: string }[] };
    // Found by its own slug (another spec may publish plant news meanwhile).
    expect(blogs.data.find((b) => b.slug === slug)).toMatchObject({ slug, title, type: 'plant-news' });
    await subscriber.close();
  });
});

test('a hostile post body stays inert on the page, in the feed and in a mail', async ({ page, browser }) => {
  const marker = `xss${Date.now().toString(36)}`;
  await signInAs(page, 'editor@polyindex.test');
  const body = [`Intro ${marker}.`, '', '<script>alert(1)</script>', '', '<img src=x onerror=alert(1)>', '', '[x](javascript:alert(1))', '', 'Closing words.'].join('\n');
  const created = await page.request.post('/api/admin/posts', {
    headers: { Origin: baseURL },
    data: { type: 'blog', title: `Hostile ${marker}`, summary: 'A post that tries to run script.', body, status: 'published' },
  });
  expect(created.status()).toBe(201);
  const { id, slug } = (await created.json()) as { id: string; slug: string };

  const reader = await browser.newContext();
  const anonymous = await reader.newPage();
  const dialogs: string[] = [];
  anonymous.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await anonymous.goto(`/news/${slug}`);
  const article = anonymous.getByTestId('post-body');
  await expect(article).toContainText('Closing words.');
  await expect(article.locator('script')).toHaveCount(0);
  await expect(article.locator('img[onerror]')).toHaveCount(0);
  await expect(article.locator('a[href^="javascript:" i]')).toHaveCount(0);
  await article.getByText('x', { exact: true }).click();
  await anonymous.waitForLoadState();
  expect(dialogs).toEqual([]);

  const feed = await xmlText(anonymous, '/rss.xml');
  const item = feed.split('<item>').find((i) => i.includes(`/news/${slug}/`)) ?? '';
  const content = (/<content:encoded>([\s\S]*?)<\/content:encoded>/.exec(item)?.[1] ?? '').replace(/^<!\[CDATA\[|\]\]>$/g, '');
  const html = content.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  expect(html).toContain('Closing words.');
  expect(html).not.toMatch(/<script|onerror\s*=|href\s*=\s*"?javascript:/i);
  await reader.close();

  // The same post as a mail, through the real mailer into the outbox.
  const outbox = join(E2E_DATA_DIR, 'outbox');
  const sent = await page.request.post(`/api/admin/posts/${id}/test-mail`, { headers: { Origin: baseURL }, data: {} });
  expect(sent.status()).toBe(200);
  const mails = async () =>
    Promise.all(readdirSync(outbox).filter((f) => f.endsWith('.eml')).map((f) => simpleParser(readFileSync(join(outbox, f)))));
  await expect.poll(async () => (await mails()).filter((m) => m.subject === `PolyIndex: Hostile ${marker}`).length).toBe(1);
  const mail = (await mails()).find((m) => m.subject === `PolyIndex: Hostile ${marker}`)!;
  expect(String(mail.html)).toContain('Closing words.');
  expect(String(mail.html)).not.toMatch(/<script|onerror\s*=|href\s*=\s*"?javascript:/i);
});

test('a slug change leaves a 301 from the old address; unpublishing makes it 404', async ({ page }) => {
  const marker = `slug${Date.now().toString(36)}`;
  await signInAs(page, 'editor@polyindex.test');
  const created = await page.request.post('/api/admin/posts', { headers: { Origin: baseURL }, data: { type: 'daily-tweet', title: `Moving post ${marker}`, body: 'Short.', status: 'published' } });
  const { id, slug } = (await created.json()) as { id: string; slug: string };
  await page.goto(`/admin/posts/${id}`);
  await expect(page.locator('form[data-post-form]')).toHaveAttribute('data-ready', 'true');
  await page.getByLabel(/^Slug/).fill(`moved-${marker}`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Post saved.' })).toBeVisible();
  const old = await page.request.get(`/news/${slug}`, { maxRedirects: 0 });
  expect(old.status()).toBe(301);
  expect(old.headers()['location']).toBe(`/news/moved-${marker}`);
  expect(await statusOf(page.request, `/news/moved-${marker}`)).toBe(200);
  await page.getByRole('button', { name: 'Unpublish' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Post unpublished' })).toBeVisible();
  expect(await statusOf(page.request, `/news/moved-${marker}`)).toBe(404);
  expect(await statusOf(page.request, `/news/${slug}`)).toBe(404);
  // The history shows who did what.
  await expect(page.getByTestId('audit-table')).toContainText('Unpublished a post');
  await expect(page.getByTestId('audit-table')).toContainText('Changed a post\'s address');
});

test('the editor role opens posts and banners, nothing else; members never see the newsroom', async ({ browser }) => {
  const editor = await browser.newContext();
  await signInByApi(editor.request, 'editor@polyindex.test');
  for (const path of ['/admin/posts', '/admin/posts/new', '/admin/banners']) expect(await statusOf(editor.request, path), path).toBe(200);
  for (const path of ['/admin', '/admin/users', '/admin/prices', '/admin/outbox', '/admin/audit']) expect(await statusOf(editor.request, path), path).toBe(404);
  expect((await editor.request.get('/api/admin/users')).status()).toBe(403);
  expect((await editor.request.get('/api/admin/posts')).status()).toBe(200);
  await editor.close();
  const premium = await browser.newContext();
  await signInByApi(premium.request, 'premium@polyindex.test');
  expect(await statusOf(premium.request, '/admin/posts')).toBe(404);
  expect((await premium.request.get('/api/admin/posts')).status()).toBe(403);
  await premium.close();
});

test('/api/blogs answers the limited sections\' types to the accounts that may open them', async ({ browser }) => {
  for (const [email, buySell, plantNews] of [
    ['free@polyindex.test', 200, 403],
    ['basic@polyindex.test', 200, 403],
    ['premium@polyindex.test', 200, 200],
    ['admin@polyindex.test', 200, 200],
  ] as const) {
    const context = await browser.newContext();
    await signInByApi(context.request, email);
    expect((await context.request.get('/api/blogs?type=BuySell')).status(), email).toBe(buySell);
    expect((await context.request.get('/api/blogs?type=buy-sell')).status(), email).toBe(buySell);
    expect((await context.request.get('/api/blogs?type=PlantNews')).status(), email).toBe(plantNews);
    await context.close();
  }
  const anonymous = await browser.newContext();
  expect((await anonymous.request.get('/api/blogs?type=BuySell')).status()).toBe(401);
  await anonymous.close();
});

test('section pages list their posts by month with the month and year selectors; a country page lists its posts under its offers', async ({ page, browser }) => {
  test.slow();
  const marker = `month${Date.now().toString(36)}`;
  const editor = await browser.newContext();
  await signInByApi(editor.request, 'editor@polyindex.test');
  // Back-dated posts (published with a past publishAt) in months no other spec writes to.
  const publish = async (type: string, title: string, publishAt: string) => {
    const created = await editor.request.post('/api/admin/posts', { headers: { Origin: baseURL }, data: { type, title, body: `Body ${marker}.`, status: 'published', publishAt } });
    expect(created.status(), title).toBe(201);
  };
  const march = `Plant news of March ${marker}`;
  const april = `Plant news of April ${marker}`;
  const nepal = `Nepal offers note ${marker}`;
  const buySell = `Buy lead of March ${marker}`;
  await publish('plant-news', march, '2025-03-12T06:30:00.000Z');
  await publish('plant-news', april, '2025-04-02T04:00:00.000Z');
  await publish('global-bazaar/Nepal', nepal, '2025-03-20T05:00:00.000Z');
  await publish('buy-sell', buySell, '2025-03-05T05:00:00.000Z');
  await editor.close();

  await signInAs(page, 'premium@polyindex.test');
  await page.goto('/plant-news?year=2025&month=4');
  const list = page.getByTestId('posts-by-month');
  await expect(list.getByRole('link', { name: april })).toBeVisible();
  await expect(list.getByRole('link', { name: march })).toHaveCount(0);
  // The selectors: choosing March shows March (the form submits itself on change).
  await expect(page.getByTestId('year-select')).toHaveValue('2025');
  await page.getByTestId('month-select').selectOption('3');
  await expect(page).toHaveURL(/[?&]month=3(&|$)/);
  await expect(page).toHaveURL(/[?&]year=2025(&|$)/);
  await expect(list.getByRole('link', { name: march })).toBeVisible();
  await expect(list.getByRole('link', { name: april })).toHaveCount(0);

  // Nonsense in the query is no error: the page falls back to the newest month.
  for (const query of ['?year=20x5&month=13', '?year=1800&month=0', '?month=%3Cscript%3E']) {
    const response = await page.goto(`/plant-news${query}`);
    expect(response?.status(), query).toBe(200);
    await expect(page.getByTestId('month-select')).toBeVisible();
  }

  // A global-bazaar country: its posts of the chosen month, under its offers.
  await page.goto('/global-bazaar/Nepal?year=2025&month=3');
  await expect(page.locator('section.country-posts').getByRole('link', { name: nepal })).toBeVisible();
  await page.goto('/global-bazaar/Nepal?year=2025&month=4');
  await expect(page.locator('section.country-posts').getByRole('link', { name: nepal })).toHaveCount(0);

  // Buy/sell is a limited section: a Basic account reads its posts by month too.
  const basic = await browser.newContext();
  await signInByApi(basic.request, 'basic@polyindex.test');
  const basicPage = await basic.newPage();
  await basicPage.goto('/buy-sell?year=2025&month=3');
  await expect(basicPage.getByTestId('posts-by-month').getByRole('link', { name: buySell })).toBeVisible();
  await basic.close();
});
