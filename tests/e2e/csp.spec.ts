/**
 * The Content-Security-Policy in Chromium (issue 15, finding 6): every page family, visited by
 * the user who may see it and used a little (a chart hovered, a form opened, a sign-in, the
 * sandbox checkout), carries a policy without 'unsafe-inline' for scripts, and the browser
 * reports no `securitypolicyviolation` and logs no CSP error on the way.
 *
 * Table-driven: a new page family (or an island on an existing one) adds a row to PAGES, with
 * the user who sees it and what a person does there. The integrator re-runs this after merging.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { feedstocks, globalBazaarCountries, indianBazaarSections, polymers, services } from '../../src/lib/catalog.ts';
import { unsubscribeToken } from '../../src/server/delivery/links.ts';
import { DEMO_PASSWORD, E2E_DATA_DIR } from './env.ts';
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
  { family: 'public', path: '/terms', who: 'anonymous', delivery: 'meta' },
  { family: 'public', path: '/contact', who: 'anonymous', delivery: 'meta', use: async (page) => page.locator('form').first().scrollIntoViewIfNeeded() },
  { family: 'not found', path: '/no-such-page', who: 'anonymous', delivery: 'header', status: 404 },
  // The 503 page (the middleware rewrites gated pages to it during an outage; it also answers its own path).
  { family: 'outage', path: '/unavailable', who: 'anonymous', delivery: 'header', status: 503 },
  // The unsubscribe page of a delivery mail: a forged link, then a signed one and its button.
  { family: 'unsubscribe', path: '/unsubscribe?token=not-a-token', who: 'anonymous', delivery: 'header', status: 400, use: unsubscribeWithSignedLink },
  // News: rendered on demand from the store (the newsroom), so the policy is a header.
  { family: 'news', path: '/news', who: 'anonymous', delivery: 'header' },
  { family: 'news', path: '/news/2026-11-21-how-to-read-cif-nhava-sheva-landed-cost', who: 'anonymous', delivery: 'header' },
  { family: 'news', path: '/news/2026-11-10-pvc-outlook-post-diwali', who: 'anonymous', delivery: 'header' },
  { family: 'news', path: '/news/2026-11-10-pvc-outlook-post-diwali/full', who: 'premium@polyindex.test', delivery: 'header' },
  { family: 'news', path: '/news/type/blog', who: 'anonymous', delivery: 'header' },
  { family: 'news', path: '/news/search?q=PP', who: 'anonymous', delivery: 'header' },
  { family: 'news', path: '/plant-news', who: 'premium@polyindex.test', delivery: 'header' },
  // Gated data screens, with their chart islands.
  { family: 'data', path: `/crude/${feedstocks[0]!.slug}`, who: 'premium@polyindex.test', delivery: 'header', use: hoverChart },
  { family: 'data', path: `/indian-bazaar/${indianBazaarSections[0]!.slug}`, who: 'premium@polyindex.test', delivery: 'header' },
  { family: 'data', path: `/global-bazaar/${globalBazaarCountries[0]!.slug}`, who: 'premium@polyindex.test', delivery: 'header' },
  { family: 'data', path: `/historical-data/${polymers[0]!.slug}`, who: 'premium@polyindex.test', delivery: 'header', use: hoverChart },
  { family: 'data', path: `/graph/${polymers[0]!.slug}`, who: 'premium@polyindex.test', delivery: 'header' },
  { family: 'data', path: '/future-trend', who: 'premium@polyindex.test', delivery: 'header' },
  // The limited set: enquiry forms, delegation photos through /_image.
  { family: 'limited', path: '/buy-sell', who: 'free@polyindex.test', delivery: 'header', use: async (page) => page.getByTestId('enquiry-buy-sell').scrollIntoViewIfNeeded() },
  { family: 'limited', path: '/vip-delegations', who: 'free@polyindex.test', delivery: 'header' },
  // An event page: its photos are /_image srcsets.
  { family: 'limited', path: '/vip-delegations/2018/plastindia-gandhinagar', who: 'free@polyindex.test', delivery: 'header', use: photosShown },
  { family: 'limited', path: `/services/${services[0]!.slug}`, who: 'free@polyindex.test', delivery: 'header' },
  { family: 'account', path: '/details', who: 'free@polyindex.test', delivery: 'header' },
  { family: 'data', path: '/compare', who: 'premium@polyindex.test', delivery: 'header', use: async (page) => void (await page.waitForLoadState('networkidle')) },
  { family: 'alerts', path: '/alerts', who: 'premium@polyindex.test', delivery: 'header' },
  { family: 'installable app', path: '/offline', who: 'anonymous', delivery: 'meta' },
  // Admin screens, with their form scripts.
  { family: 'admin', path: '/admin', who: 'admin@polyindex.test', delivery: 'header' },
  { family: 'admin', path: '/admin/prices', who: 'admin@polyindex.test', delivery: 'header' },
  { family: 'admin', path: '/admin/prices/import', who: 'admin@polyindex.test', delivery: 'header' },
  { family: 'admin', path: '/admin/markets', who: 'admin@polyindex.test', delivery: 'header' },
  { family: 'admin', path: '/admin/banners', who: 'admin@polyindex.test', delivery: 'header' },
  { family: 'admin', path: '/admin/users', who: 'admin@polyindex.test', delivery: 'header' },
  { family: 'admin', path: '/admin/audit', who: 'admin@polyindex.test', delivery: 'header' },
  { family: 'admin', path: '/admin/outbox', who: 'admin@polyindex.test', delivery: 'header' },
  { family: 'admin', path: '/admin/whatsapp', who: 'admin@polyindex.test', delivery: 'header' },
  // The newsroom: the list, and the editor with its live preview (the site's renderer) and cover form.
  { family: 'newsroom', path: '/admin/posts', who: 'editor@polyindex.test', delivery: 'header' },
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
