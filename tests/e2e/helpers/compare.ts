/**
 * The comparison journey of issue 16, for the desktop and the mobile project alike: a Premium
 * user builds a 3-series comparison in ₹/kg over 5 years, saves it, reopens it from its URL in
 * a fresh context, and downloads the XLSX (whose values must equal /api/series for the same
 * query, read with the same library) and the PNG. The user is made for the run (own views only).
 */
import { readFileSync } from 'node:fs';
import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { baseURL } from '../env.ts';
import { ensureAccount, signInByApi, uniqueEmail } from './auth.ts';

const SERIES = ['feedstock.naphtha.japan', 'historical.ppRaffia.mumbai', 'historical.ppRaffia.cif-ns'] as const;

/** A new account with a Premium plan granted by the admin, signed in on a new context. */
export async function premiumUser(browser: Browser, prefix: string, options: BrowserContextOptions = {}) {
  const email = uniqueEmail(prefix);
  const context = await browser.newContext(options);
  await ensureAccount(context.request, email);
  await signInByApi(context.request, email);
  const { user } = (await (await context.request.get('/api/session')).json()) as { user: { uid: string } };
  const admin = await browser.newContext();
  await signInByApi(admin.request, 'admin@polyindex.test');
  const granted = await admin.request.post(`/api/admin/users/${user.uid}/grant`, { data: { plan: 'Premium' }, headers: { Origin: baseURL } });
  expect(granted.status(), await granted.text()).toBe(200);
  await admin.close();
  return { email, context };
}

async function addSeries(page: Page, id: string): Promise<void> {
  await page.getByLabel('Add a series').selectOption(id);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.locator(`[data-testid="compare-stats"] tr[data-series="${id}"]`)).toBeVisible();
}

export async function compareJourney(
  page: Page,
  browser: Browser,
  email: string,
  testInfo: { outputPath(name: string): string },
  options: BrowserContextOptions = {},
): Promise<void> {
  // From a chart screen: "Add to compare" starts the comparison with naphtha.
  await page.goto('/crude/Naphtha');
  await page.getByTestId('add-to-compare').first().click();
  await expect(page).toHaveURL(/\/compare\?/);
  await expect(page.locator(`[data-testid="compare-stats"] tr[data-series="${SERIES[0]}"]`)).toBeVisible();
  await addSeries(page, SERIES[1]);
  await addSeries(page, SERIES[2]);

  // ₹/kg over 5 years: the selectors apply on change.
  await page.getByTestId('unit-select').selectOption('inr_kg');
  await expect(page).toHaveURL(/unit=inr_kg/);
  await page.getByTestId('range-select').selectOption('5Y');
  await expect(page).toHaveURL(/range=5Y/);
  await expect(page.getByTestId('compare-stats').locator('tbody tr')).toHaveCount(3);
  await expect(page.getByTestId('compare-result')).toContainText('Values in ₹/kg');
  await expect(page.getByTestId('compare-chart').locator('svg path[fill="none"]').first()).toBeVisible();
  const url = new URL(page.url());
  expect(url.searchParams.get('s')).toBe(SERIES.join(','));

  // Save it under a name of this run.
  const name = `Naphtha vs PP ${Date.now()}`;
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Save this view' }).click();
  await expect(page.getByTestId('saved-note')).toContainText(name);
  const saved = page.getByTestId('saved-views').getByRole('link', { name });
  await expect(saved).toBeVisible();
  const href = (await saved.getAttribute('href'))!;
  expect(href).toBe(`/compare?s=${SERIES.join(',')}&range=5Y&unit=inr_kg`);

  // A fresh context (the same user signing in anew) opens the view from its URL.
  const fresh = await browser.newContext(options);
  try {
    await signInByApi(fresh.request, email);
    const again = await fresh.newPage();
    await again.goto(href);
    await expect(again.getByTestId('unit-select')).toHaveValue('inr_kg');
    await expect(again.getByTestId('range-select')).toHaveValue('5Y');
    await expect(again.getByTestId('compare-stats').locator('tbody tr')).toHaveCount(3);
    for (const id of SERIES) await expect(again.locator(`[data-testid="compare-stats"] tr[data-series="${id}"]`)).toBeVisible();
    await expect(again.getByTestId('saved-views')).toContainText(name);

    // XLSX: one sheet per series plus the summary; its values are /api/series's for the same query.
    const xlsxLink = again.getByTestId('export-xlsx');
    const query = (await xlsxLink.getAttribute('href'))!.split('?')[1]!;
    expect(query).toContain(`ids=${SERIES.join(',')}`);
    expect(query).toContain('unit=inr_kg');
    const [xlsx] = await Promise.all([again.waitForEvent('download'), xlsxLink.click()]);
    const xlsxPath = testInfo.outputPath('comparison.xlsx');
    await xlsx.saveAs(xlsxPath);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(xlsxPath);
    // Data (date × series), Series (each one's basis), Summary, then a sheet per series.
    expect(book.worksheets.map((w) => w.name).slice(0, 3)).toEqual(['Data', 'Series', 'Summary']);
    expect(book.worksheets).toHaveLength(3 + SERIES.length);
    const api = (await (await fresh.request.get(`/api/series?${query}`)).json()) as { series: { id: string; dates: string[]; values: number[] }[] };
    expect(api.series.map((s) => s.id)).toEqual([...SERIES]);
    api.series.forEach((line, i) => {
      const dates: string[] = [];
      const values: number[] = [];
      // The series' basis in header rows, then the table's own header (Date), then the points.
      // A range-quoted series has Low, High and Mid columns: its value is the mid (the last one).
      let valueColumn = 0;
      book.worksheets[i + 3]!.eachRow((row) => {
        if (valueColumn > 0) {
          dates.push((row.getCell(1).value as Date).toISOString().slice(0, 10));
          values.push(row.getCell(valueColumn).value as number);
        } else if (row.getCell(1).value === 'Date') valueColumn = row.cellCount;
      });
      expect(book.worksheets[i + 3]!.getRow(2).getCell(1).value).toBe('Basis');
      expect(values.length).toBeGreaterThan(50);
      expect(dates).toEqual(line.dates);
      expect(values).toEqual(line.values);
    });

    // PNG: the chart as a picture.
    const [png] = await Promise.all([again.waitForEvent('download'), again.getByTestId('export-png').click()]);
    expect(png.suggestedFilename()).toMatch(/^polyindex-compare-.*\.png$/);
    const pngPath = testInfo.outputPath('comparison.png');
    await png.saveAs(pngPath);
    const bytes = readFileSync(pngPath);
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(bytes.length).toBeGreaterThan(10_000);
  } finally {
    await fresh.close();
  }
}
