/**
 * City-wise and offers administration in Chromium: the admin gives a grade's price on a city's
 * latest sheet as a range (one end only is refused at its field) and a Premium user sees
 * "108.50–109.50" on /indian-bazaar/citywise; the admin enters a
 * country's offer as a range (low and high), one end only is refused at its field, and a Premium
 * user sees "1,005–1,025" on the country's table; non-admins get the 404 page.
 */
import { expect, test } from '@playwright/test';
import { signInAs, signInByApi } from './helpers/auth.ts';

test('the admin edits a city price as a range (low and high); one end only is refused at its field; a Premium user sees the range', async ({ page, browser }) => {
  test.slow(); // two browser contexts
  await signInAs(page, 'admin@polyindex.test');
  await page.goto('/admin/markets?city=indore');
  const sheet = page.getByRole('region', { name: 'City-wise sheet' });
  const row = sheet.getByRole('row', { name: /^PVC Injection/ });
  await expect(row.locator('form[data-admin-form]')).toHaveAttribute('data-ready', 'true');
  // A cell kept as one number before ranges has a Value field: cleared, the range takes its place.
  const value = row.getByLabel('PVC Injection value', { exact: true });
  if ((await value.count()) > 0) await value.fill('');
  await row.getByLabel('PVC Injection low', { exact: true }).fill('108.50');
  await row.getByLabel('PVC Injection high', { exact: true }).fill('');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByRole('status')).toContainText('needs its high');
  await expect(row.getByLabel('PVC Injection high', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await row.getByLabel('PVC Injection high', { exact: true }).fill('109.50');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'City price saved.' })).toBeVisible();
  // The form reads back both ends and no Value field; the range as the sheets write it under the grade.
  const saved = page.getByRole('region', { name: 'City-wise sheet' }).getByRole('row', { name: /^PVC Injection/ });
  await expect(saved.getByLabel('PVC Injection low', { exact: true })).toHaveValue('108.5');
  await expect(saved.getByLabel('PVC Injection high', { exact: true })).toHaveValue('109.5');
  await expect(saved.getByLabel('PVC Injection value', { exact: true })).toHaveCount(0);
  await expect(saved.getByRole('rowheader')).toContainText('108.50–109.50');

  const premium = await browser.newContext();
  await signInByApi(premium.request, 'premium@polyindex.test');
  const view = await premium.newPage();
  await view.goto('/indian-bazaar/citywise?city=indore');
  await expect(view.locator('main')).toContainText('108.50–109.50');
  await premium.close();
});

test('the admin enters an offer as a range (low and high); one end only is refused at its field; a Premium user sees the range', async ({ page, browser }) => {
  test.slow(); // two browser contexts
  const year = new Date().getFullYear() - 1;
  const date = `${year}-06-10`;
  await signInAs(page, 'admin@polyindex.test');
  await page.goto(`/admin/markets?country=Nepal&offerDate=${date}`);
  const form = page.getByTestId('offers-form');
  await expect(form).toHaveAttribute('data-ready', 'true');
  await form.getByLabel('PP Raffia low', { exact: true }).fill('1005');
  await form.getByRole('button', { name: 'Save offers' }).click();
  await expect(form.getByRole('status')).toContainText('needs its high');
  await expect(form.getByLabel('PP Raffia high', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('PP Raffia high', { exact: true }).fill('1025');
  await form.getByLabel('HDPE Film low', { exact: true }).fill('1100');
  await form.getByLabel('HDPE Film high', { exact: true }).fill('1110');
  await form.getByRole('button', { name: 'Save offers' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Offers saved.' })).toBeVisible();
  // The form reads back the ends, and the range as the tables write it.
  await expect(page.getByTestId('offers-form').getByLabel('PP Raffia low', { exact: true })).toHaveValue('1005');
  await expect(page.getByTestId('offers-form').getByRole('row', { name: /^PP Raffia/ }).getByRole('rowheader')).toContainText('1,005–1,025');

  const premium = await browser.newContext();
  await signInByApi(premium.request, 'premium@polyindex.test');
  const view = await premium.newPage();
  await view.goto(`/global-bazaar/Nepal?year=${year}&month=6`);
  const pp = view.getByRole('table', { name: /Polypropylene \(PP\)/ });
  await expect(pp.getByRole('columnheader', { name: `10th Jun ${year}` })).toBeVisible();
  await expect(pp.getByRole('row', { name: /^Raffia/ })).toContainText('1,005–1,025');
  await expect(view.getByRole('table', { name: /High-density polyethylene/ }).getByRole('row', { name: /^Film/ })).toContainText('1,100–1,110');
  await premium.close();
});

test('non-admins meet the 404 page on /admin/markets', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  const response = await page.goto('/admin/markets');
  expect(response?.status()).toBe(404);
});
