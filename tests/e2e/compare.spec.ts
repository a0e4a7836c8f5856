// /compare in Chromium (desktop): the issue 16 journey, bad links, access, and axe.
import { expect, test } from '@playwright/test';
import { signInAs, signInByApi } from './helpers/auth.ts';
import { violations } from './helpers/axe.ts';
import { compareJourney, premiumUser } from './helpers/compare.ts';

test('a Premium user compares three series in ₹/kg over 5 years, saves the view, reopens it and downloads XLSX and PNG', async ({ browser }, testInfo) => {
  test.slow();
  const { email, context } = await premiumUser(browser, 'compare-desktop');
  try {
    await compareJourney(await context.newPage(), browser, email, testInfo);
  } finally {
    await context.close();
  }
});

test('a bad link still opens the page and says what was left out; a series the unit cannot take says so', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  await page.goto('/compare?s=nope,feedstock.va.china&unit=inr_kg&range=2W');
  const notes = page.getByTestId('compare-notes');
  await expect(notes).toContainText('There is no series “nope”');
  await expect(notes).toContainText('“2W” is not a range');
  await expect(notes).toContainText('cannot be shown in ₹/kg');
  await expect(page.getByTestId('compare-stats').locator('tbody tr')).toHaveCount(1);
});

test('a series the unit cannot take keeps its own axis, under the converted ones', async ({ page, context }) => {
  await signInByApi(context.request, 'premium@polyindex.test');
  await page.goto('/compare?s=feedstock.naphtha.japan,historical.ppRaffia.mumbai,feedstock.va.china&unit=inr_kg');
  await expect(page.getByTestId('unit-select')).toHaveValue('inr_kg');
  await expect(page.getByTestId('compare-caption')).toHaveText(
    'Values in ₹/kg. Vinyl acetate · China (RMB/t) cannot be converted: it keeps its own axis below. Converted per date with the ₹/US$ reference rate (fx.usdinr); taxes, duties and freight stay as each series is quoted.',
  );
  const panels = page.getByTestId('compare-chart').locator('.compare-panel');
  await expect(panels).toHaveCount(2);
  await expect(panels.nth(0)).toHaveAttribute('data-unit', '₹/kg');
  await expect(panels.nth(0).locator('.chart-legend li')).toHaveText(['Naphtha · Japan', 'PP Raffia · Mumbai ex-works (incl. GST)']);
  await expect(panels.nth(1)).toHaveAttribute('data-unit', 'RMB/t');
  await expect(panels.nth(1).locator('.chart-legend li')).toHaveText(['Vinyl acetate · China']);
  // Each axis fits its own lines: ₹/kg ticks in tens, RMB ticks in thousands.
  const ticks = async (i: number) => (await panels.nth(i).locator('.chart-y span').allTextContents()).map((t) => Number(t.replaceAll(',', '')));
  expect(Math.max(...(await ticks(0)))).toBeLessThan(500);
  expect(Math.min(...(await ticks(1)))).toBeGreaterThan(1000);
  // The table names every line with its unit.
  await expect(page.getByTestId('compare-stats').locator('tr[data-series="feedstock.va.china"] th')).toContainText('(RMB/t)');
});

test('custom dates across years and the indexed, smoothed view', async ({ page, context }) => {
  test.slow(); // several chart redraws: custom dates, indexed, smoothed
  await signInAs(context, 'premium@polyindex.test');
  await page.goto('/compare?s=feedstock.crude.brent,feedstock.naphtha.japan');
  const year = new Date().getFullYear();
  await page.getByTestId('from-date').fill(`${year - 3}-04-01`);
  await page.getByTestId('to-date').fill(`${year - 1}-03-31`);
  await expect(page.getByTestId('range-select')).toHaveValue('custom');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`range=custom&from=${year - 3}-04-01&to=${year - 1}-03-31`));
  await page.getByTestId('view-select').selectOption('indexed');
  await expect(page).toHaveURL(/view=indexed/);
  await page.getByTestId('ma-select').selectOption('30');
  await expect(page).toHaveURL(/ma=30/);
  await expect(page.getByTestId('compare-result')).toContainText('Index, first point = 100, 30-point moving average');
  await expect(page.getByRole('heading', { name: `1st Apr ${year - 3} to 31st Mar ${year - 1}` })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test('/compare and /api/series follow the access policy', async ({ browser }) => {
  const anonymous = await browser.newContext();
  expect((await anonymous.request.get('/api/series?ids=fx.usdinr')).status()).toBe(401);
  const page = await anonymous.newPage();
  await page.goto('/compare?s=fx.usdinr');
  await expect(page).toHaveURL(/\/register\?next=/);
  await anonymous.close();
  for (const [email, status] of [['basic@polyindex.test', 403], ['free@polyindex.test', 403]] as const) {
    const context = await browser.newContext();
    await signInByApi(context.request, email);
    expect((await context.request.get('/api/series?ids=fx.usdinr')).status()).toBe(status);
    expect((await context.request.get('/api/views')).status()).toBe(status);
    await context.close();
  }
});
