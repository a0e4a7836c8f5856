// A Premium trader's tour of the data screens, in Chromium against the production build
// (scripts/start.mjs: embedded SQLite seeded with demo prices, the Auth emulator, demo accounts).
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { feedstocks } from '../../src/lib/catalog.ts';
import { signInAs } from './helpers/auth.ts';
import { hydrated } from './helpers/hydration.ts';
import { STORELESS } from './sites.ts';

/** The session cookie lands in the page's context: pages and the data API both see it. */
async function signInAsPremium(page: Page): Promise<void> {
  await signInAs(page, 'premium@polyindex.test');
}

/**
 * Chooses `value` in an auto-submitting selector (`data-autosubmit`, src/scripts/chrome.ts): first
 * waits until the layout's script has attached its listener (`data-ready`), which after a
 * navigation (the previous choice) is later than the new URL.
 */
async function choose(page: Page, testId: string, value: string): Promise<void> {
  const select = page.getByTestId(testId);
  await expect(select).toHaveAttribute('data-ready', 'true');
  await select.selectOption(value);
}

const redLine = (scope: Page) =>
  scope.locator('[data-testid="price-chart"] svg path[stroke="#d62828"][stroke-width="2.5"]').first();

test.beforeEach(async ({ page }) => {
  await signInAsPremium(page);
});

test('feedstock: list, chart, sub-market and year selectors', async ({ page }) => {
  await page.goto('/crude');
  const table = page.getByTestId('feedstock-table');
  await expect(table.getByRole('row', { name: /Naphtha.*Japan/ })).toBeVisible();
  // A header row, then one row per feedstock market.
  await expect(table.getByRole('row')).toHaveCount(1 + feedstocks.reduce((n, f) => n + f.subMarkets.length, 0));

  await page.getByRole('link', { name: 'Naphtha chart' }).click();
  await expect(page).toHaveURL(/\/crude\/Naphtha$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Naphtha' })).toBeVisible();
  await expect(redLine(page)).toBeVisible();
  await expect(page.getByTestId('stat-latest')).toContainText('US$/t');
  // The basis of the price, and its methodology, under the chart's title.
  await expect(page.getByTestId('basis')).toContainText('CFR Japan');
  await expect(page.getByTestId('basis').getByRole('link', { name: 'Methodology' })).toHaveAttribute('href', '/methodology/feedstocks');
  await expect(page.getByTestId('stat-change')).toContainText('%');

  await choose(page, 'market-select', 'china');
  await expect(page).toHaveURL(/country=china/);
  await expect(page.getByRole('heading', { name: /Naphtha · China/ })).toBeVisible();

  const year = String(new Date().getFullYear() - 3);
  await choose(page, 'year-select', year);
  await expect(page).toHaveURL(new RegExp(`year=${year}`));
  await expect(page.getByRole('heading', { name: new RegExp(`Naphtha · China, ${year}`) })).toBeVisible();
  await expect(page.getByTestId('stat-low')).toContainText(`Low (${year})`);
  await expect(redLine(page)).toBeVisible();
  await expect(page.getByTestId('csv-link')).toHaveAttribute('href', '/api/export/feedstock.naphtha.china.csv');
});

test('feedstock chart: tooltip shows the ordinal date', async ({ page }) => {
  await page.goto('/crude/Crude');
  const chart = page.getByTestId('price-chart').locator('svg').first();
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toBeVisible();
  // Hydrated on visibility: wait for it, then hover the middle of the plot.
  await hydrated(page, chart);
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2 - 3, box.y + box.height / 2, { steps: 2 });
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
  await expect(page.locator('.chart-tooltip')).toContainText(/\d{1,2}(st|nd|rd|th) [A-Z][a-z]{2} \d{4}/);
  await expect(page.locator('.chart-tooltip')).toContainText('US$/bbl');
});

test('feedstock chart: skeleton while fetching, message and Retry on failure, then the averages', { tag: STORELESS }, async ({ page }) => {
  // The browser side of the fetch is under test here (the endpoint has its own tests): answers
  // are held until released, the first ones fail, and later ones succeed.
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  let failing = true;
  await page.route('**/api/feedstock?*', async (route) => {
    await held;
    if (failing) return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"unavailable","message":"down","field":null}}' });
    const url = new URL(route.request().url());
    expect(url.searchParams.get('type')).toBe('Monthly');
    expect(url.searchParams.get('name')).toBe('Naphtha');
    return route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ data: { key: ['01/02/2024', '01/01/2024', '01/03/2024'], value: [610, 600, 620] } }),
    });
  });
  await page.goto('/crude/Naphtha?year=2024');
  await page.getByTestId('price-chart').scrollIntoViewIfNeeded();
  const monthly = page.getByRole('button', { name: 'Monthly' });
  // Clicks before hydration do nothing; once hydrated, a click shows the skeleton while held.
  await hydrated(page, monthly);
  await monthly.click();
  await expect(page.getByTestId('chart-skeleton')).toBeVisible();
  await expect(page.getByTestId('feedstock-explorer')).toHaveAttribute('aria-busy', 'true');

  release();
  await expect(page.getByTestId('chart-error')).toContainText('503');
  await expect(page.getByTestId('chart-skeleton')).toHaveCount(0);
  await expect(page.getByTestId('feedstock-explorer')).toHaveAttribute('aria-busy', 'false');
  await expect(redLine(page)).toBeVisible(); // the last chart stays

  failing = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('chart-error')).toHaveCount(0);
  await expect(page.getByTestId('chart-skeleton')).toHaveCount(0);
  await expect(redLine(page)).toBeVisible();
  // Three monthly points, sorted: the path has exactly two segments after the move.
  await expect.poll(async () => ((await redLine(page).getAttribute('d')) ?? '').split('L').length).toBe(3);
  await expect(monthly).toHaveAttribute('aria-pressed', 'true');
});

test('CSV download of the series behind a chart', async ({ page }) => {
  await page.goto('/crude/Propylene?country=korea');
  const downloading = page.waitForEvent('download');
  await page.getByTestId('csv-link').first().click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('feedstock.propylene.korea.csv');
  const text = await readFile(await download.path(), 'utf8');
  const lines = text.trim().split('\n');
  // The basis in the header rows (a spreadsheet shows them above the prices), then the format.
  expect(lines[1]).toMatch(/^# basis: series=feedstock\.propylene\.korea; label=Propylene · Korea; basis=FOB Korea; .*unit=US\$\/t;/);
  expect(lines[2]).toBe('series,date,value');
  expect(lines.length).toBeGreaterThan(1000);
  expect(lines[3]).toMatch(/^feedstock\.propylene\.korea,\d{4}-\d{2}-\d{2},\d+(\.\d{1,2})?$/);
  // Every point a Premium subscriber's plan reaches: this year and the 5 before it (issue 21).
  expect(lines[3]!.split(',')[1]!.slice(0, 4)).toBe(String(new Date().getFullYear() - 5));
});

test('global bazaar: the month’s offers table with month and year selectors', async ({ page }) => {
  await page.goto('/global-bazaar/USA');
  await expect(page.getByTestId('offers-table').first()).toBeVisible();
  await expect(page.getByRole('table', { name: /Polypropylene \(PP\)/ }).getByRole('row', { name: /Raffia/ })).toBeVisible();
  // Offers are quoted as ranges: a cell reads "1,005–1,025", and the page says so.
  await expect(page.getByTestId('offers-table').first().locator('td.num').first()).toHaveText(/^\d{1,3}(,\d{3})*–\d{1,3}(,\d{3})*$/);
  await expect(page.getByTestId('range-note')).toContainText('quoted as a range, low–high');
  const year = String(new Date().getFullYear() - 2);
  await choose(page, 'year-select', year);
  await expect(page).toHaveURL(new RegExp(`year=${year}`));
  await choose(page, 'month-select', '3');
  await expect(page).toHaveURL(/month=3/);
  await expect(page.getByText(new RegExp(`for Mar ${year}`))).toBeVisible();
  // Two offer dates in a month: grade column + two date columns.
  await expect(page.getByTestId('offers-table').first().locator('thead th')).toHaveCount(3);
});

test('indian bazaar: city-wise sheet with a city selector', async ({ page }) => {
  await page.goto('/indian-bazaar/citywise');
  await expect(page.getByTestId('city-select')).toHaveValue('ahmedabad');
  await expect(page.getByRole('table', { name: /Polypropylene/ }).getByRole('row', { name: /PP Raffia/ })).toBeVisible();
  await choose(page, 'city-select', 'kolkata');
  await expect(page).toHaveURL(/city=kolkata/);
  await expect(page.getByText(/Kolkata ex-godown prices/)).toBeVisible();
  await expect(page.getByTestId('basis').first()).toContainText('ex-godown Kolkata · desk assessment of traded levels · incl. 18% GST · ₹/kg');
  await expect(page.getByTestId('city-sheet').getByRole('table')).toHaveCount(5);
});

test('indian bazaar: the customs rate in force with its notification, the year’s notifications, and the USD→INR chart with a year selector', async ({ page }) => {
  await page.goto('/indian-bazaar/customExchangeRate');
  const inForce = page.getByTestId('customs-rate-in-force');
  await expect(inForce).toContainText(/₹\d{2}\.\d{2}\/US\$ for imports/);
  await expect(inForce).toContainText(/Notification No\. \d+\/\d{4}-Customs \(N\.T\.\), notified .* in force from /);
  // Twice a month: about two dozen notifications in a year, each with its number and dates.
  const rows = page.getByTestId('customs-notifications').locator('tbody tr');
  expect(await rows.count()).toBeGreaterThan(0);
  expect(await rows.count()).toBeLessThanOrEqual(24);
  await expect(rows.first()).toContainText(/No\. \d+\/\d{4}\s*notified/);
  await expect(redLine(page)).toBeVisible();
  const year = String(new Date().getFullYear() - 5);
  await choose(page, 'year-select', year);
  await expect(page).toHaveURL(new RegExp(`year=${year}`));
  await expect(page.getByRole('heading', { name: `US dollar to Indian rupee, ${year}` })).toBeVisible();
  await expect(page.getByTestId('csv-link')).toHaveAttribute('href', '/api/export/fx.usdinr.csv');
});

test('indian bazaar: the landed-cost calculator recomputes live and validates', async ({ page }) => {
  await page.goto('/indian-bazaar/importCalculation');
  const form = page.getByTestId('landed-cost-form');
  await expect(form.getByLabel('CIF price (US$/t)')).not.toHaveValue('');
  await expect(page.getByTestId('landed-per-kg')).toContainText('/kg');
  // Prefilled with the customs rate in force, and says which notification it is.
  const notified = page.getByTestId('customs-notification-used');
  await expect(notified).toContainText(/^Customs rate: ₹[\d.]+\/US\$, CBIC notification No\. \d+\/\d{4}-Customs \(N\.T\.\), in force from /);
  const rate = (await form.getByLabel('Customs exchange rate (₹/US$)').inputValue());
  expect(await notified.textContent()).toContain(`₹${Number(rate).toFixed(2)}/US$`);
  // The gap to the domestic price, explained.
  const gap = page.getByTestId('domestic-gap');
  await expect(gap).toContainText('PP Raffia ex-works Mumbai, incl. 18% GST');
  await expect(gap).toContainText(/Import (dearer|cheaper) by/);
  await expect(gap).toContainText('customs duty (BCD and its surcharge)');
  await form.scrollIntoViewIfNeeded();

  const fill = async (label: string, value: string) => {
    await form.getByLabel(label).fill(value);
  };
  // Worked example: CIF 1,000 × ₹85, BCD 7.5%, SWS 10%, IGST 18%, ₹1,500/t → ₹110.07/kg.
  // Typed before hydration, a value would be lost: wait for the island first.
  await hydrated(page, form);
  await fill('CIF price (US$/t)', '1000');
  await fill('Customs exchange rate (₹/US$)', '85');
  await fill('Basic customs duty (%)', '7.5');
  await fill('Social welfare surcharge (% of BCD)', '10');
  await fill('IGST (%)', '18');
  await fill('Port & clearing charges (₹/t)', '1500');
  await expect(page.getByTestId('landed-per-kg')).toHaveText('₹110.07 /kg');
  await expect(page.getByTestId('net-per-kg')).toHaveText('₹93.51 /kg');
  await expect(notified).toContainText('The customs rate entered is not the one in force');

  await fill('Basic customs duty (%)', '150');
  await expect(form.getByRole('alert')).toContainText('Basic customs duty (%) must be between 0 and 100');
  await expect(page.getByTestId('landed-cost-invalid')).toBeVisible();
  await fill('Basic customs duty (%)', '10');
  await expect(page.getByTestId('landed-per-kg')).toBeVisible();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the calculator works as a GET form, and charts are server-rendered', async ({ page }) => {
    await page.goto('/indian-bazaar/importCalculation?grade=pvcExtrusion');
    await expect(page.getByTestId('prefill-source')).toContainText(/PVC Extrusion assessment of .* \(CIF Nhava Sheva, US\$\/t\)/);
    const form = page.getByTestId('landed-cost-form');
    await form.getByLabel('CIF price (US$/t)').fill('1000');
    await form.getByLabel('Customs exchange rate (₹/US$)').fill('85');
    await form.getByLabel('Basic customs duty (%)').fill('7.5');
    await form.getByLabel('Social welfare surcharge (% of BCD)').fill('10');
    await form.getByLabel('IGST (%)').fill('18');
    await form.getByLabel('Port & clearing charges (₹/t)').fill('1500');
    await form.getByRole('button', { name: 'Calculate' }).click();
    await expect(page).toHaveURL(/cifUsdPerTonne=1000/);
    await expect(page.getByTestId('landed-per-kg')).toHaveText('₹110.07 /kg');

    await page.goto('/indian-bazaar/importCalculation?cifUsdPerTonne=abc&exchangeRate=85&bcdPct=7.5&swsPct=10&igstPct=18&portChargesPerTonne=0');
    await expect(page.getByText('CIF price (US$/t) must be a number.')).toBeVisible();

    await page.goto('/historical-data/PP');
    await expect(redLine(page)).toBeVisible();
  });
});

test('indian bazaar post sections: month and year selectors', async ({ page }) => {
  await page.goto('/indian-bazaar/boppFilm');
  await expect(page.getByTestId('post-list')).toBeVisible();
  await choose(page, 'year-select', String(new Date().getFullYear() - 12));
  await expect(page.getByTestId('no-posts')).toBeVisible();
});

test('historical data: grade and year selectors, Mumbai and CIF NS charts', async ({ page }) => {
  await page.goto('/historical-data/HDPE');
  await expect(page.getByRole('heading', { name: /HDPE Raffia · Mumbai ex-works \(incl\. GST\)/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /HDPE Raffia · CIF Nhava Sheva/ })).toBeVisible();
  await expect(page.getByTestId('basis').first()).toContainText('ex-works Mumbai · desk assessment of traded levels · incl. 18% GST · ₹/kg');
  await expect(page.getByTestId('basis').nth(1)).toContainText('CIF Nhava Sheva · desk assessment of traded levels · excl. customs duty and IGST · US$/t');
  await choose(page, 'grade-select', 'hdpeBlowMoulding');
  await expect(page).toHaveURL(/polymer=hdpeBlowMoulding/);
  // A Premium subscriber's selector reaches back this year and the 5 before it (issue 21).
  await expect(page.getByTestId('year-select').locator('option').last()).toHaveText(String(new Date().getFullYear() - 5));
  const year = String(new Date().getFullYear() - 4);
  await choose(page, 'year-select', year);
  await expect(page).toHaveURL(new RegExp(`year=${year}`));
  await expect(page.getByRole('heading', { name: new RegExp(`HDPE Blow moulding · CIF Nhava Sheva, ${year}`) })).toBeVisible();
  // Mumbai's line, CIF's line, and CIF's low–high band drawn in its line's colour.
  await expect(page.getByTestId('price-chart').locator('svg path[stroke="#d62828"]')).toHaveCount(3);
});

test('graph: a polymer’s grades compared on one chart', async ({ page }) => {
  await page.goto('/graph/PP');
  const chart = page.getByTestId('price-chart').first();
  await expect(chart.locator('svg path[stroke-width="2.5"]')).toHaveCount(5);
  await choose(page, 'market-select', 'CIF NS');
  await expect(page).toHaveURL(/market=CIF\+NS|market=CIF%20NS/);
  await expect(page.getByTestId('basis').first()).toContainText('CIF Nhava Sheva');
  await expect(page.getByTestId('basis').first()).toContainText('US$/t');
});

test('future trends: the outlook of a product, and every product’s recent trend', async ({ page }) => {
  await page.goto('/future-trend/PP');
  await expect(page.getByRole('heading', { name: /^Outlook: PP Raffia/ })).toBeVisible();
  await expect(redLine(page)).toBeVisible();
  await page.goto('/future-trends');
  await expect(page.getByRole('heading', { level: 1, name: 'Future trends' })).toBeVisible();
  expect(await page.getByTestId('price-chart').count()).toBeGreaterThan(0);
});

test('bad query parameters fall back; unknown slugs are 404', async ({ page }) => {
  const ok = await page.goto('/crude/Naphtha?year=abc&country=mars');
  expect(ok?.status()).toBe(200);
  await expect(page.getByTestId('market-select')).toHaveValue('japan');
  const missing = await page.goto('/crude/Gold');
  expect(missing?.status()).toBe(404);
});
