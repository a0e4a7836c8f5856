/**
 * Issue 20 in Chromium against the production build: the methodology is public and every family
 * page is one click from the overview; each data screen says the basis of its prices and links
 * its family's methodology; a price the desk corrects in the admin shows, to a subscriber, when
 * it was corrected and what it was before.
 */
import { expect, test, type Page } from '@playwright/test';
import { METHODOLOGY_FAMILIES } from '../../src/lib/basis.ts';
import { signIn, signInByApi } from './helpers/auth.ts';
import { seriousViolationsInMain } from './helpers/axe.ts';
import { STORELESS } from './sites.ts';

test('the methodology is public: an anonymous reader opens every family page from the overview', { tag: STORELESS }, async ({ page }) => {
  test.slow(); // eight pages
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Methodology' }).click();
  await expect(page).toHaveURL(/\/methodology\/?$/);
  await expect(page.getByRole('heading', { level: 1, name: 'How PolyIndex prices are made' })).toBeVisible();
  expect(await seriousViolationsInMain(page)).toEqual([]);
  const main = page.getByRole('main');
  for (const family of METHODOLOGY_FAMILIES) await expect(main.getByRole('link', { name: family.name, exact: true })).toHaveAttribute('href', `/methodology/${family.slug}`);
  await main.getByRole('link', { name: 'Feedstocks', exact: true }).click();
  await expect(page).toHaveURL(/\/methodology\/feedstocks\/?$/);
  for (const family of METHODOLOGY_FAMILIES) {
    await page.goto(`/methodology/${family.slug}`);
    await expect(page).toHaveTitle(`PolyIndex | Methodology: ${family.name}`);
    await expect(page.getByRole('heading', { level: 2, name: 'Corrections' })).toBeVisible();
  }
  expect(await seriousViolationsInMain(page)).toEqual([]);
  // The city-wise page names every city's basis, and says how it differs from the producers' price.
  await page.goto('/methodology/indian-city-wise');
  await expect(page.getByTestId('basis-group')).toContainText('ex-godown Mumbai');
  await expect(page.getByTestId('basis-group')).toContainText('incl. 18% GST');
  await expect(page.getByTestId('basis-group')).toContainText('producers’ ex-works prices are the historical Mumbai series');
});

async function basisOf(page: Page, path: string) {
  await page.goto(path);
  const basis = page.getByTestId('basis').first();
  await expect(basis).toBeVisible();
  return basis;
}

test('each data screen says its basis and links its family’s methodology', async ({ page }) => {
  await signInByApi(page.context().request, 'premium@polyindex.test');
  // Two EDC series that differ only by their terms say so.
  const fob = await basisOf(page, '/crude/EDC?country=sea');
  await expect(fob).toContainText('FOB South-East Asia');
  await expect(page.getByTestId('basis-note')).toContainText('the CFR SEA series adds the freight');
  const cfr = await basisOf(page, '/crude/EDC?country=cfr_sea');
  await expect(cfr).toContainText('CFR South-East Asia');

  const city = await basisOf(page, '/indian-bazaar/citywise?city=pune');
  await expect(city).toContainText('ex-godown Pune · desk assessment of traded levels · incl. 18% GST · ₹/kg · weekly (Mondays) by 18:00 IST');
  const offers = await basisOf(page, '/global-bazaar/India');
  await expect(offers).toContainText('CIF Nhava Sheva · offers (sellers’ asking prices)');
  // The notified customs rate first, then the daily reference rate: two prices, two bases.
  const customs = await basisOf(page, '/indian-bazaar/customExchangeRate');
  await expect(customs).toContainText('CBIC customs rate · official rate notified by the government');
  const rate = page.getByTestId('basis').nth(1);
  await expect(rate).toContainText('FBIL · official reference rate');
  await expect(page.getByTestId('customs-rate-note')).toContainText('CBIC');

  // The card's methodology link opens the family's page.
  await rate.getByRole('link', { name: 'Methodology' }).click();
  await expect(page).toHaveURL(/\/methodology\/exchange-rates\/?$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Methodology: exchange rates');
});

test('the desk corrects a past price in the admin; a subscriber sees when and what it was', async ({ page, browser }) => {
  test.slow(); // two browser contexts
  await signIn(page, 'admin@polyindex.test');
  await page.goto('/admin/prices?series=feedstock.acn.sea');
  await expect(page.locator('form[data-admin-form]').first()).toHaveAttribute('data-ready', 'true');
  // The third newest point: a published price, not today's.
  const row = page.getByTestId('points').locator('tbody tr').nth(2);
  const date = (await row.getAttribute('data-date'))!;
  const input = row.getByRole('textbox');
  const before = Number(await input.inputValue());
  const after = Math.round((before + 7.25) * 100) / 100;
  await input.fill(String(after));
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Price saved.' })).toBeVisible();

  const context = await browser.newContext();
  const premium = await context.newPage();
  await signInByApi(context.request, 'premium@polyindex.test');
  await premium.goto(`/crude/ACN?country=sea&year=${date.slice(0, 4)}`);
  const corrections = premium.getByTestId('corrections');
  await expect(corrections).toBeVisible();
  const written = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const item = corrections.locator(`li[data-date="${date}"]`);
  await expect(item).toContainText(`${written(after)} US$/t, corrected on`);
  await expect(item).toContainText(`was ${written(before)}`);
  // And /api/series says the same in its meta.
  const answer = (await (await premium.request.get(`/api/series?ids=feedstock.acn.sea&from=${date}&to=${date}`)).json()) as { series: { corrections: { date: string; value: number; previous: number }[] }[] };
  expect(answer.series[0]!.corrections).toEqual([expect.objectContaining({ date, value: after, previous: before })]);
  await context.close();
});
