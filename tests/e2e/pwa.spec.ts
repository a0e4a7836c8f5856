/**
 * The installable app in Chromium on the real server: Chrome's own installability check, the
 * service worker, a price screen read offline with its "prices as of" stamp, and the private
 * copies gone after a sign-out (here or in another tab) or when the session ends, and never made
 * for an anonymous visitor or for account, payment and admin pages.
 */
import { chromium, expect, test, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { appManifest, APP_ICONS, iconPath } from '../../src/lib/pwa/appShell.ts';
import { baseURL } from './env.ts';
import { ensureAccount, signIn, signInAs, signInByApi, uniqueEmail } from './helpers/auth.ts';

// The other specs block service workers (playwright.config.ts); this one is about it.
test.use({ serviceWorkers: 'allow' });

const PRIVATE = 'polyindex-private-copies-v1';
const PUBLIC = 'polyindex-public-v1';
const STAMP = /^Offline copy: prices as of \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} IST$/;

/** Waits until the service worker is active and controls the page. */
async function controlled(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/**
 * The caches holding a copy of this address, by name. The precache keys non-hashed files with a
 * revision query: `anyQuery` ignores the query.
 */
function cachesHolding(page: Page, path: string, anyQuery = false): Promise<string[]> {
  return page.evaluate(
    async ({ address, ignoreSearch }) => {
      const found: string[] = [];
      for (const name of await caches.keys()) {
        if (await (await caches.open(name)).match(address, { ignoreVary: true, ignoreSearch })) found.push(name);
      }
      return found;
    },
    { address: path, ignoreSearch: anyQuery },
  );
}

/** A fresh account on the Premium plan (granted by the admin), so signing it out touches no other spec. */
async function freshPremium(playwright: PlaywrightWorkerArgs['playwright']): Promise<string> {
  const email = uniqueEmail('pwa');
  const user = await playwright.request.newContext({ baseURL });
  await ensureAccount(user, email);
  await signInByApi(user, email);
  const { user: record } = (await (await user.get('/api/session')).json()) as { user: { uid: string } };
  await user.dispose();
  const admin = await playwright.request.newContext({ baseURL });
  await signInByApi(admin, 'admin@polyindex.test');
  const granted = await admin.post(`/api/admin/users/${record.uid}/grant`, { data: { plan: 'Premium' }, headers: { Origin: baseURL } });
  expect(granted.status(), await granted.text()).toBe(200);
  await admin.dispose();
  return email;
}

/** A subscriber opens the naphtha chart online; the worker keeps a private copy of it. */
async function viewNaphtha(page: Page): Promise<void> {
  await page.goto('/');
  await controlled(page);
  await page.goto('/crude/Naphtha');
  await expect(page.getByTestId('price-chart')).toBeVisible();
  await expect.poll(() => cachesHolding(page, '/crude/Naphtha')).toEqual([PRIVATE]);
}

/** Offline, the gated screen is not there: the offline page stands in, with no chart. */
async function expectNoOfflineCopy(page: Page): Promise<void> {
  await page.context().setOffline(true);
  await page.goto('/crude/Naphtha');
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  await expect(page.getByTestId('price-chart')).toHaveCount(0);
  await page.context().setOffline(false);
}

test('Chromium finds the app installable: manifest, icons and service worker', async ({ request }) => {
  // Chrome never offers to install from an incognito profile, which every new Playwright
  // context is; a persistent profile is an ordinary one.
  const profile = await mkdtemp(join('.cache', 'pwa-profile-'));
  const context = await chromium.launchPersistentContext(profile, { ...test.info().project.use.launchOptions, baseURL });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.url).toBe(`${baseURL}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }

  // The manifest as served, and every icon it names: a real PNG of the size it claims.
  const served = await request.get('/manifest.webmanifest');
  expect(served.headers()['content-type']).toContain('application/manifest+json');
  expect(await served.json()).toEqual(JSON.parse(JSON.stringify(appManifest)));
  for (const icon of APP_ICONS) {
    const png = await (await request.get(iconPath(icon))).body();
    expect(png.subarray(1, 4).toString('latin1'), icon.name).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)], icon.name).toEqual([icon.size, icon.size]);
  }
});

test('the service worker registers for the whole site and precaches the offline page', async ({ page }) => {
  await page.goto('/');
  await controlled(page);
  const registration = await page.evaluate(async () => {
    const r = await navigator.serviceWorker.ready;
    return { scope: r.scope, script: r.active?.scriptURL };
  });
  expect(registration).toEqual({ scope: `${baseURL}/`, script: `${baseURL}/sw.js` });
  await expect.poll(async () => (await cachesHolding(page, '/offline', true)).some((name) => name.startsWith('workbox-precache'))).toBe(true);
});

test('a Premium subscriber reads a visited chart offline, stamped with the time its prices were fetched', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  await viewNaphtha(page);
  // A data answer too: the weekly averages come from /api/feedstock.
  await page.getByRole('button', { name: 'Weekly' }).click();
  await expect(page.getByTestId('price-chart')).toBeVisible();
  await expect.poll(async () => (await page.evaluate(() => caches.open('polyindex-private-copies-v1').then((c) => c.keys()))).length).toBeGreaterThan(1);
  await expect(page.locator('[data-offline-stamp]')).toBeHidden();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('price-chart')).toBeVisible();
  const stamp = page.locator('[data-offline-stamp]');
  await expect(stamp).toBeVisible();
  await expect(stamp).toHaveText(STAMP);
  const fetchedAt = Date.parse((await stamp.getAttribute('data-fetched-at'))!);
  expect(Date.now() - fetchedAt).toBeGreaterThanOrEqual(0);
  expect(Date.now() - fetchedAt).toBeLessThan(5 * 60_000);

  // The weekly averages offline: the kept data answer, and the page says how old it is.
  await page.getByRole('button', { name: 'Weekly' }).click();
  await expect(page.getByTestId('chart-error')).toHaveCount(0);
  await expect(page.getByTestId('price-chart')).toBeVisible();
  await expect(stamp).toHaveText(STAMP);

  // A screen never opened: the offline page, which lists the saved one.
  await page.goto('/crude/Crude');
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  await page.getByRole('link', { name: /\/crude\/Naphtha/ }).click();
  await expect(page.getByTestId('price-chart')).toBeVisible();
  await context.setOffline(false);
});

test('after sign-out the gated page is no longer readable offline', async ({ page, context, playwright }) => {
  const email = await freshPremium(playwright);
  await signInByApi(context.request, email);
  await viewNaphtha(page);

  await page.getByRole('button', { name: 'Sign out' }).click();
  // Signed out, the header takes the visitor home: wait for that page before asking it anything.
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expect.poll(() => cachesHolding(page, '/crude/Naphtha')).toEqual([]);
  await expectNoOfflineCopy(page);

  // Belt and braces: the sign-out answer also tells the browser to drop its HTTP cache. (Chromium
  // consumes the header, so a page never sees it: read it from a plain HTTP client.)
  const client = await playwright.request.newContext({ baseURL });
  await signInByApi(client, email);
  const logout = await client.post('/api/auth/logout', { data: {}, headers: { Origin: baseURL } });
  expect(logout.status()).toBe(200);
  expect(logout.headers()['clear-site-data']).toBe('"cache"');
  await client.dispose();
});

test('a sign-out in another tab forgets the copies this tab made', async ({ page, context, playwright }) => {
  await signInByApi(context.request, await freshPremium(playwright));
  await viewNaphtha(page);

  const other = await context.newPage();
  // Another page of the site, in a second tab (signing out takes it home).
  await other.goto('/crude');
  await other.getByRole('button', { name: 'Sign out' }).click();
  await expect(other).toHaveURL(`${baseURL}/`);
  await expect(other.getByRole('link', { name: 'Sign in' })).toBeVisible();

  await expect.poll(() => cachesHolding(page, '/crude/Naphtha')).toEqual([]);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  await expect(page.getByTestId('price-chart')).toHaveCount(0);
  await context.setOffline(false);
});

test('a sign-out the page script never saw (a bare request) still forgets the copies', async ({ page, context, playwright }) => {
  await signInByApi(context.request, await freshPremium(playwright));
  await viewNaphtha(page);
  // Straight to the endpoint from the page, past the header's sign-out code: the worker sees it.
  const status = await page.evaluate(() =>
    fetch('/api/auth/logout', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }).then((r) => r.status),
  );
  expect(status).toBe(200);
  await expect.poll(() => cachesHolding(page, '/crude/Naphtha')).toEqual([]);
  await expectNoOfflineCopy(page);
});

test('another user signing in on the same device never gets the first one\'s copies', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  await viewNaphtha(page);
  // No sign-out: another account signs in on the sign-in page, through the worker.
  await signIn(page, 'platinum@polyindex.test', undefined, '/crude/Crude');
  await expect(page).toHaveURL(/\/crude\/Crude$/);
  await expect(page.getByTestId('price-chart')).toBeVisible();
  await expect.poll(() => cachesHolding(page, '/crude/Crude')).toEqual([PRIVATE]);
  expect(await cachesHolding(page, '/crude/Naphtha')).toEqual([]);
  await expectNoOfflineCopy(page);
});

test('a session that ended without a sign-out takes the copies with it', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  await viewNaphtha(page);
  // The cookie is gone (expired, or cleared by the browser): the next gated page redirects.
  await context.clearCookies();
  await page.goto('/crude/Naphtha');
  await expect(page).toHaveURL(/\/register/);
  await expect.poll(() => cachesHolding(page, '/crude/Naphtha')).toEqual([]);
  await expectNoOfflineCopy(page);
});

test('a copy is not shown once the session it was fetched under has expired', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  await viewNaphtha(page);
  // Time passes past the session's end: the server's answers (for the same viewer) now name an
  // expiry that is behind us, as a clock five days on would see the one it was given. Every
  // answer that names the viewer, not only the session answer: the home page's ticker names it
  // too, and whichever of the two the worker sees last sets the owner's expiry.
  await context.route('**/*', async (route) => {
    const response = await route.fetch();
    const viewer = response.headers()['x-polyindex-viewer'];
    const past = Math.floor(Date.now() / 1000) - 60;
    const headers = viewer ? { ...response.headers(), 'x-polyindex-viewer': viewer.replace(/expires=\d+/, `expires=${past}`) } : response.headers();
    // A request the browser settled while its answer was fetched here (seen once, with the
    // service worker in the way) is "already handled": nobody is left to give the answer to.
    await route.fulfill({ response, headers }).catch((error: unknown) => {
      if (!String(error).includes('Route is already handled')) throw error;
    });
  });
  await page.goto('/');
  // The worker took the new expiry for its owner (same viewer, later answer).
  const ownerExpired = () =>
    page.evaluate(async () => {
      const owner = await caches.match('/__polyindex/offline-owner');
      return owner ? ((await owner.json()) as { expiresAt: number }).expiresAt < Date.now() : null;
    });
  await expect.poll(ownerExpired).toBe(true);
  // Offline, nothing answers: not even the rewrite above (route.fetch would still reach the server).
  await context.unrouteAll({ behavior: 'wait' });
  await context.setOffline(true);
  await page.goto('/crude/Naphtha');
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  await expect(page.getByTestId('price-chart')).toHaveCount(0);
  await context.setOffline(false);
  expect(await cachesHolding(page, '/crude/Naphtha')).toEqual([]);
});

test('an anonymous visitor never gets gated pages or data cached', async ({ page }) => {
  await page.goto('/');
  await controlled(page);
  await page.goto('/crude/Naphtha');
  await expect(page).toHaveURL(/\/register/);
  const status = await page.evaluate(() => fetch('/api/feedstock?name=Naphtha').then((r) => r.status));
  expect(status).toBe(401);
  // Positive control: a public page opened last is kept, so the worker was keeping this
  // visitor's answers all along (and had its turn at the gated ones before).
  await page.goto('/terms');
  await expect.poll(() => cachesHolding(page, '/terms')).toEqual([PUBLIC]);

  expect(await cachesHolding(page, '/crude/Naphtha')).toEqual([]);
  expect(await cachesHolding(page, '/api/feedstock?name=Naphtha')).toEqual([]);
  // The sign-in page's configuration call is never kept either.
  expect(await cachesHolding(page, '/api/auth/config')).toEqual([]);
  expect(await page.evaluate(async () => (await caches.keys()).filter((n) => n.startsWith('polyindex-private-')))).toEqual([]);
  await expectNoOfflineCopy(page);
});

test('while the site answers 503 (an outage), a kept screen opens from its copy, stamped; one never kept shows the 503', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  await viewNaphtha(page);
  // The server cannot check the session or read its data: every gated answer is a 503 naming nobody
  // (as the access middleware answers in an outage).
  await context.route(
    (url) => url.pathname.startsWith('/crude') || url.pathname.startsWith('/api/feedstock'),
    (route) => route.fulfill({ status: 503, contentType: 'text/html', headers: { 'Retry-After': '60', 'Cache-Control': 'no-store' }, body: '<h1>Briefly unavailable</h1>' }),
  );
  await page.goto('/crude/Naphtha');
  await expect(page.getByTestId('price-chart')).toBeVisible();
  await expect(page.locator('[data-offline-stamp]')).toHaveText(STAMP);
  // The copy was not stamped anew by being shown.
  expect(await cachesHolding(page, '/crude/Naphtha')).toEqual([PRIVATE]);

  await page.goto('/crude/Crude');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Briefly unavailable');
  await context.unrouteAll();
  // Back up: the live page again, no stamp.
  await page.goto('/crude/Naphtha');
  await expect(page.getByTestId('price-chart')).toBeVisible();
  await expect(page.locator('[data-offline-stamp]')).toBeHidden();
});

test('account, payment and admin pages are never kept', async ({ page, context }) => {
  await signInAs(context, 'admin@polyindex.test');
  await page.goto('/');
  await controlled(page);
  for (const path of ['/admin', '/subscription', '/details']) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
  }
  // A gated page the admin views is kept, so the worker was busy keeping things all along.
  await page.goto('/crude/Naphtha');
  await expect.poll(() => cachesHolding(page, '/crude/Naphtha')).toEqual([PRIVATE]);
  for (const path of ['/admin', '/subscription', '/details', '/api/session']) expect(await cachesHolding(page, path), path).toEqual([]);
});

test('a gated answer marked no-store is never kept', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  await page.goto('/');
  await controlled(page);
  // The real answers for one screen, as a server would send a screen it must never let be stored.
  await context.route('**/crude/Naphtha?country=china', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'cache-control': 'private, no-store' } });
  });
  await page.goto('/crude/Naphtha?country=china');
  await expect(page.getByTestId('price-chart')).toBeVisible();
  // The same screen without the mark is kept: the worker was keeping this viewer's screens.
  await page.goto('/crude/Naphtha');
  await expect.poll(() => cachesHolding(page, '/crude/Naphtha')).toEqual([PRIVATE]);
  expect(await cachesHolding(page, '/crude/Naphtha?country=china')).toEqual([]);
});

