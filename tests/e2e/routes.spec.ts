import { type Page } from '@playwright/test';
import { feedstocks, futureTrendProducts, globalBazaarCountries, indianBazaarSections, polymers, services } from '../../src/lib/catalog.ts';
import { signInAs, storageStateOf } from './helpers/auth.ts';
import { expect, test, type KeptContexts } from './helpers/keptContexts.ts';

// Every route of the spec, as the admin (who may see everything) sees it.
const routes = [
  '/', '/subscription', '/details', '/terms', '/privacy', '/refunds', '/contact', '/buy-sell', '/plant-news',
  '/crude', ...feedstocks.map((f) => `/crude/${f.slug}`),
  '/global-bazaar', ...globalBazaarCountries.map((c) => `/global-bazaar/${c.slug}`),
  '/indian-bazaar', ...indianBazaarSections.map((s) => `/indian-bazaar/${s.slug}`),
  '/historical-data', ...polymers.map((p) => `/historical-data/${p.slug}`),
  ...polymers.map((p) => `/graph/${p.slug}`),
  '/future-trend', ...futureTrendProducts.map((p) => `/future-trend/${p.slug}`), '/future-trends',
  '/vip-delegations', '/vip-delegations/2019', '/services', ...services.map((s) => `/services/${s.slug}`),
  '/news',
];

const expectedTitle = (path: string) => {
  const first = path.split('/').filter(Boolean)[0];
  return first ? `PolyIndex | ${first.charAt(0).toUpperCase()}${first.slice(1)}` : 'PolyIndex | Home';
};

/** A page as the admin, in the worker's kept context (these tests only look). */
async function asAdmin(kept: KeptContexts, look: (page: Page) => Promise<void>): Promise<void> {
  const context = await kept.get('admin', () => ({ storageState: storageStateOf('admin@polyindex.test') }));
  const page = await context.newPage();
  try {
    await look(page);
  } finally {
    await page.close();
  }
}

test.describe('every route answers with its title', () => {
  for (const path of routes) {
    test(path, ({ keptContexts }) =>
      asAdmin(keptContexts, async (page) => {
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        await expect(page).toHaveTitle(expectedTitle(path));
        await expect(page.locator('h1').first()).toBeVisible();
      }));
  }

  test('every VIP delegation event linked from the navigation opens', ({ keptContexts }) => {
    test.slow(); // one page load per event, 2017 to 2025
    return asAdmin(keptContexts, async (page) => {
      await page.goto('/');
      const links = await page.locator('.main-nav a[href^="/vip-delegations/20"]').evaluateAll((as) =>
        as.map((a) => a.getAttribute('href')!).filter((href) => href.split('/').length === 4),
      );
      const years = new Set(links.map((href) => href.split('/')[2]));
      expect([...years].sort()).toEqual(['2017', '2018', '2019', '2020', '2021', '2022', '2023', '2024', '2025']);
      for (const href of links) {
        const response = await page.goto(href);
        expect(response?.status(), href).toBe(200);
        await expect(page).toHaveTitle('PolyIndex | Vip-delegations');
      }
    });
  });

  for (const path of [
    '/crude/Gold', '/crude/naphtha', '/global-bazaar/Mars', '/indian-bazaar/nowhere', '/historical-data/PET',
    '/graph/ABS', '/future-trend/steel', '/services/catering', '/vip-delegations/2016', '/vip-delegations/2019/no-such-event',
    '/vip-delegations/abc', '/no-such-page', '/news/no-such-article',
  ]) {
    test(`unknown ${path} is a real 404`, ({ keptContexts }) =>
      asAdmin(keptContexts, async (page) => {
        const response = await page.goto(path);
        expect(response?.status()).toBe(404);
        await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      }));
  }
});

test.describe('layout', () => {
  test('full pages have the contact bar, header, navigation and footer', async ({ page }) => {
    await page.goto('/terms');
    const bar = page.getByTestId('contact-bar');
    await expect(bar).toContainText('+91 22 4000 7000');
    await expect(bar).toContainText('GSTIN 27AABCP1234F1ZU');
    await expect(bar).toContainText('desk@polyindex.test');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    const footer = page.locator('footer');
    await expect(footer).toContainText('polymer price index for informed business decisions');
    for (const name of ['USA', 'PP', 'News', 'Daily tweets', 'Pricing', 'Terms', 'Privacy']) {
      await expect(footer.getByRole('link', { name, exact: true })).toBeVisible();
    }
  });

  for (const path of ['/register', '/subscription', '/details']) {
    test(`${path} is bare: no contact bar, header, navigation or footer`, async ({ page, context }) => {
      await signInAs(context, 'free@polyindex.test');
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByTestId('contact-bar')).toHaveCount(0);
      await expect(page.locator('header.site-header')).toHaveCount(0);
      await expect(page.locator('nav.main-nav')).toHaveCount(0);
      await expect(page.locator('footer')).toHaveCount(0);
    });
  }

  test('back-to-top appears after 500 px of scroll and takes you up', async ({ page }) => {
    await page.goto('/terms');
    const button = page.getByRole('button', { name: 'Back to top' });
    await expect(button).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect(button).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 700));
    await expect(button).toBeVisible();
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(button).toBeHidden();
  });

  test('the loading placeholder is gone once the page is ready', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#page-loading')).toBeHidden();
  });

  test('the year selector lists the current year down to twelve years back (the whole archive: Platinum)', async ({ page, context }) => {
    await signInAs(context, 'platinum@polyindex.test');
    await page.goto('/crude/Crude');
    const years = await page.getByTestId('year-select').first().locator('option').allTextContents();
    const current = new Date().getFullYear();
    expect(years.map(Number)).toEqual(Array.from({ length: 13 }, (_, i) => current - i));
  });
});
