import { feedstocks, futureTrendProducts, globalBazaarCountries, indianBazaarSections, polymers, services } from '../../src/lib/catalog.ts';
import { signInAs, storageStateOf } from './helpers/auth.ts';
import { expect, KEPT_CONNECTION_RETRIES, test, type KeptContexts } from './helpers/keptContexts.ts';

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

/** The admin's requests (the kept context's cookies): the route walk asks the server, the layout check draws each page kind. */
const adminRequests = async (kept: KeptContexts) => (await kept.get('admin', () => ({ storageState: storageStateOf('admin@polyindex.test') }))).request;

/** A page's status, `<title>` and first heading as the server answers it. */
async function answerOf(kept: KeptContexts, path: string): Promise<{ status: number; title: string | undefined; heading: string | undefined }> {
  const response = await (await adminRequests(kept)).get(path, { maxRetries: KEPT_CONNECTION_RETRIES });
  const html = await response.text();
  const text = (fragment: string | undefined) => fragment?.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
  return { status: response.status(), title: text(/<title>([\s\S]*?)<\/title>/.exec(html)?.[1]), heading: text(/<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]) };
}

// Every address of the catalog, asked of the server as the admin: the browser's look at each
// page kind is the layout check's (tests/e2e/layout.spec.ts); here, that no address is missing.
test.describe('every route answers with its title', () => {
  for (const path of routes) {
    test(path, async ({ keptContexts }) => {
      const answer = await answerOf(keptContexts, path);
      expect(answer.status).toBe(200);
      expect(answer.title).toBe(expectedTitle(path));
      expect(answer.heading, `${path} has a heading`).toBeTruthy();
    });
  }

  test('every VIP delegation event linked from the navigation opens', async ({ keptContexts, page }) => {
    await signInAs(page, 'admin@polyindex.test');
    await page.goto('/');
    const links = await page.locator('.main-nav a[href^="/vip-delegations/20"]').evaluateAll((as) =>
      as.map((a) => a.getAttribute('href')!).filter((href) => href.split('/').length === 4),
    );
    const years = new Set(links.map((href) => href.split('/')[2]));
    expect([...years].sort()).toEqual(['2017', '2018', '2019', '2020', '2021', '2022', '2023', '2024', '2025']);
    for (const href of links) {
      const answer = await answerOf(keptContexts, href);
      expect(answer.status, href).toBe(200);
      expect(answer.title, href).toBe('PolyIndex | Vip-delegations');
    }
  });

  for (const path of [
    '/crude/Gold', '/crude/naphtha', '/global-bazaar/Mars', '/indian-bazaar/nowhere', '/historical-data/PET',
    '/graph/ABS', '/future-trend/steel', '/services/catering', '/vip-delegations/2016', '/vip-delegations/2019/no-such-event',
    '/vip-delegations/abc', '/no-such-page', '/news/no-such-article',
  ]) {
    test(`unknown ${path} is a real 404`, async ({ keptContexts }) => {
      const answer = await answerOf(keptContexts, path);
      expect(answer.status).toBe(404);
      expect(answer.heading).toBe('Page not found');
    });
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
