// The city-wise history in Chromium: a past month's sheet picked with the month and year
// selectors, and one grade compared between two cities. Reads demo data no spec writes (Pune, Bangalore).
import { expect, test } from '@playwright/test';
import { signInAs } from './helpers/auth.ts';
import { formatQuote } from '../../src/lib/numbers.ts';

test('a past date’s sheet by month and year, and a city against another for one grade', async ({ page, context }) => {
  // Slow: often the run's first reader of the store, which seeds the demo data on first open.
  test.slow();
  await signInAs(context, 'premium@polyindex.test');
  await page.goto('/indian-bazaar/citywise?city=pune');
  // The sheet dates of a month a year ago, from the store.
  const dates = ((await (await context.request.get('/api/citywise/pune')).json()) as { data: { date: string }[] }).data;
  expect(dates.length).toBe(17);
  const back = new Date();
  back.setUTCMonth(back.getUTCMonth() - 12);
  const [year, month] = [back.getUTCFullYear(), back.getUTCMonth() + 1];
  await page.getByTestId('year-select').selectOption(String(year));
  await expect(page).toHaveURL(new RegExp(`year=${year}`));
  await expect(page.getByTestId('year-select')).toHaveValue(String(year));
  await page.getByTestId('month-select').selectOption(String(month));
  await expect(page).toHaveURL(new RegExp(`month=${month}(&|$)`));
  // The month's sheet dates, newest first, once the page of that month is there.
  const prefix = `${year}-${String(month).padStart(2, '0')}`;
  const options = page.getByTestId('date-select').locator('option');
  await expect(options.first()).toHaveAttribute('value', new RegExp(`^${prefix}-`));
  await expect.poll(() => options.count()).toBeGreaterThanOrEqual(4);
  const oldest = (await options.last().getAttribute('value'))!;
  expect(oldest.slice(0, 7)).toBe(prefix);
  await page.getByTestId('date-select').selectOption(oldest);
  await expect(page).toHaveURL(new RegExp(`date=${oldest}`));

  // The sheet shown is that date's, as the API gives it.
  const sheet = ((await (await context.request.get(`/api/citywise/pune?date=${oldest}`)).json()) as { data: { display: string; price: number; low?: number; high?: number }[] }).data;
  const raffia = sheet.find((e) => e.display === 'PP Raffia')!;
  // City sheets are quoted low–high (issue 20): the API gives both ends beside the mid, the table writes the range.
  expect(raffia.low).toBeLessThan(raffia.high!);
  await expect(page.getByTestId('sheet-caption')).toContainText('Pune ex-godown prices');
  await expect(page.getByRole('table', { name: /Polypropylene/ }).getByRole('row', { name: /PP Raffia/ })).toContainText(formatQuote({ value: raffia.price, low: raffia.low, high: raffia.high }, { unit: '₹/kg' }));

  // Pune against Bangalore for HDPE film, over that year.
  await page.getByTestId('grade-select').selectOption('hdpeFilm');
  await expect(page).toHaveURL(/grade=hdpeFilm/);
  await page.getByTestId('vs-select').selectOption('bangalore');
  await expect(page).toHaveURL(/vs=bangalore/);
  const table = page.getByTestId('city-vs-city');
  await expect(table.locator('caption')).toContainText(`HDPE Film in ${year}: Pune and Bangalore`);
  expect(await table.locator('tbody tr').count()).toBeGreaterThan(10);
  await expect(page.getByTestId('price-chart').last()).toBeVisible();
  // Still the sheet of the date picked.
  await expect(page.getByTestId('date-select')).toHaveValue(oldest);
});
