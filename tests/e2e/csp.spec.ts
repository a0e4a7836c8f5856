/**
 * The Content-Security-Policy in Chromium (issue 15, finding 6): every page family, visited by
 * the user who may see it and used a little (a chart hovered, a form opened, a sign-in, the
 * sandbox checkout), carries a policy without 'unsafe-inline' for scripts, and the browser
 * reports no `securitypolicyviolation` and logs no CSP error on the way.
 *
 * Every page kind is opened by the layout check (tests/e2e/layout.spec.ts) as each role that
 * sees it, at both sizes, and each of those visits checks the policy and that nothing is
 * reported: this table holds the pages where a person *does* something (hovers a chart, types,
 * signs in, pays), and says whether the policy comes as a header or a <meta>. A page where
 * something new happens adds a row, with the user and what they do.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { feedstocks, globalBazaarCountries, indianBazaarSections, polymers, services } from '../../src/lib/catalog.ts';
import { unsubscribeToken } from '../../src/server/delivery/links.ts';
import { baseURL, DEMO_PASSWORD, E2E_DATA_DIR, storageStateOf } from './env.ts';
import { signInByApi } from './helpers/auth.ts';
import { cspTests, type CspCase } from './helpers/csp.ts';
import { giveBilling } from './helpers/billing.ts';

const hoverChart = async (page: Page) => {
  const chart = page.getByTestId('price-chart').locator('svg').first();
  await chart.scrollIntoViewIfNeeded();
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
};

/** The event's photos, scrolled into view and decoded (they load lazily through /_image). */
const photosShown = async (page: Page) => {
  const photo = page.locator('.photos img').first();
  await photo.scrollIntoViewIfNeeded();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 20_000 }).toBe(true);
};

/** A signed unsubscribe link (the server's own link secret, kept in its DATA_DIR) for an alert nobody has: the page asks, the button posts. */
const unsubscribeWithSignedLink = async (page: Page) => {
  // The forged link's page made the server keep its secret.
  const secret = readFileSync(join(E2E_DATA_DIR, 'delivery-link-secret'), 'utf8').trim();
  const token = unsubscribeToken(secret, { uid: `csp-nobody-${Date.now().toString(36)}`, what: 'alert', alertId: 'al_csp' }, new Date());
  await page.goto(`/unsubscribe?token=${encodeURIComponent(token)}`);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByTestId('unsubscribed')).toBeVisible();
};

const PAGES: readonly CspCase[] = [
  // Public (prerendered): the home carousel asks /api/carousels; the header asks /api/session.
  { family: 'public', path: '/', who: 'anonymous', delivery: 'meta', use: async (page) => void (await page.waitForLoadState('networkidle')) },
  { family: 'public', path: '/contact', who: 'anonymous', delivery: 'meta', use: async (page) => page.locator('form').first().scrollIntoViewIfNeeded() },
  // The unsubscribe page of a delivery mail: a forged link, then a signed one and its button.
  { family: 'unsubscribe', path: '/unsubscribe?token=not-a-token', who: 'anonymous', delivery: 'header', status: 400, use: unsubscribeWithSignedLink },
  // Gated data screens, with their chart islands.
  { family: 'data', path: `/crude/${feedstocks[0]!.slug}`, who: 'premium@polyindex.test', delivery: 'header', use: hoverChart },
  { family: 'data', path: `/historical-data/${polymers[0]!.slug}`, who: 'premium@polyindex.test', delivery: 'header', use: hoverChart },
  // The limited set: enquiry forms, delegation photos through /_image.
  { family: 'limited', path: '/buy-sell', who: 'free@polyindex.test', delivery: 'header', use: async (page) => page.getByTestId('enquiry-buy-sell').scrollIntoViewIfNeeded() },
  // An event page: its photos are /_image srcsets.
  { family: 'limited', path: '/vip-delegations/2018/plastindia-gandhinagar', who: 'free@polyindex.test', delivery: 'header', use: photosShown },
  { family: 'data', path: '/compare', who: 'premium@polyindex.test', delivery: 'header', use: async (page) => void (await page.waitForLoadState('networkidle')) },
  // The newsroom's editor with its live preview (the site's renderer) and cover form.
  {
    family: 'newsroom',
    path: '/admin/posts/new',
    who: 'editor@polyindex.test',
    delivery: 'header',
    use: async (page) => {
      const form = page.locator('form[data-post-form]');
      await expect(form).toHaveAttribute('data-ready', 'true');
      await form.getByLabel(/^Body/).fill('Rates **firm** in Mumbai.\n\n<img src=x onerror=alert(1)>');
      await expect(page.getByTestId('preview').locator('strong')).toHaveText('firm');
    },
  },
  // Sign-in: the Firebase SDK talks to the Auth emulator (the mode of this run).
  {
    family: 'sign-in',
    path: '/register',
    who: 'anonymous',
    delivery: 'header',
    use: async (page) => {
      await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill('free@polyindex.test');
      await page.getByLabel('Password').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page).not.toHaveURL(/\/register/);
      await page.waitForLoadState('networkidle');
    },
  },
  // Subscription and the sandbox checkout dialog.
  {
    family: 'checkout',
    path: '/subscription',
    who: 'free@polyindex.test',
    delivery: 'header',
    use: async (page) => {
      await page.locator('[data-plan="Premium"]').getByRole('button', { name: /^Pay .* for Premium$/ }).click();
      await giveBilling(page);
      const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Dismiss' }).click();
      await expect(dialog).toBeHidden();
    },
  },
];

cspTests(PAGES);

/**
 * How each kind of page carries its policy: prerendered pages in a <meta> (no server answers
 * them per request), the rest as a header. Asked of the server; the browser's check of each
 * page kind is the layout check's.
 */
const DELIVERY: readonly [path: string, who: string, delivery: 'header' | 'meta'][] = [
  ['/terms', 'anonymous', 'meta'],
  ['/offline', 'anonymous', 'meta'],
  ['/no-such-page', 'anonymous', 'header'],
  ['/unavailable', 'anonymous', 'header'],
  ['/news', 'anonymous', 'header'],
  ['/news/2026-11-10-pvc-outlook-post-diwali', 'anonymous', 'header'],
  ['/news/2026-11-10-pvc-outlook-post-diwali/full', 'premium@polyindex.test', 'header'],
  ['/news/search?q=PP', 'anonymous', 'header'],
  ['/plant-news', 'premium@polyindex.test', 'header'],
  [`/indian-bazaar/${indianBazaarSections[0]!.slug}`, 'premium@polyindex.test', 'header'],
  [`/global-bazaar/${globalBazaarCountries[0]!.slug}`, 'premium@polyindex.test', 'header'],
  [`/graph/${polymers[0]!.slug}`, 'premium@polyindex.test', 'header'],
  ['/vip-delegations', 'free@polyindex.test', 'header'],
  [`/services/${services[0]!.slug}`, 'free@polyindex.test', 'header'],
  ['/details', 'free@polyindex.test', 'header'],
  ['/alerts', 'premium@polyindex.test', 'header'],
  ['/admin', 'admin@polyindex.test', 'header'],
  ['/admin/prices/import', 'admin@polyindex.test', 'header'],
  ['/admin/posts', 'editor@polyindex.test', 'header'],
];

test('CSP: prerendered pages carry the policy in a <meta>, pages rendered per request in a header', async ({ playwright }) => {
  const problems: string[] = [];
  for (const [path, who, delivery] of DELIVERY) {
    const request = await playwright.request.newContext({ baseURL, ...(who === 'anonymous' ? {} : { storageState: storageStateOf(who) }) });
    const response = await request.get(path, { maxRedirects: 0 });
    const header = response.headers()['content-security-policy'];
    const meta = /<meta http-equiv="content-security-policy" content="([^"]*)"/i.exec(await response.text())?.[1];
    const policy = delivery === 'header' ? header : meta;
    if (!policy) problems.push(`${path} (${who}): no policy in a ${delivery}`);
    else if (!policy.includes('script-src ')) problems.push(`${path} (${who}): no script-src in its ${delivery}`);
    await request.dispose();
  }
  expect(problems).toEqual([]);
});

test('CSP: the sign-in page names the Auth emulator of this run, and no Google endpoint', async ({ request }) => {
  const response = await request.get('/register');
  const policy = response.headers()['content-security-policy']!;
  const connect = policy.split(';').map((d) => d.trim()).find((d) => d.startsWith('connect-src '))!;
  expect(connect).toMatch(/^connect-src 'self' http:\/\/127\.0\.0\.1:\d+$/);
  expect(policy).not.toContain('googleapis.com');
  // The sandbox checkout is our own dialog: no Razorpay origin either.
  await signInByApi(request, 'free@polyindex.test');
  const subscription = await request.get('/subscription', { maxRedirects: 0 });
  expect(subscription.status()).toBe(200);
  const checkoutPolicy = subscription.headers()['content-security-policy']!;
  expect(checkoutPolicy).toContain("script-src 'self'");
  expect(checkoutPolicy).not.toContain('razorpay');
});
