/**
 * City-wise and offers administration in Chromium: the admin changes a grade's price on a city's
 * latest sheet and a Premium user sees it on /indian-bazaar/citywise; the admin saves a
 * country's offers as JSON and bad JSON is refused at the field; non-admins get the 404 page.
 */
import { expect, test } from '@playwright/test';
import { signInAs, signInByApi } from './helpers/auth.ts';

test('the admin edits a city price; a Premium user sees it on the city-wise sheet', async ({ page, browser }) => {
  test.slow(); // two browser contexts
  await signInAs(page, 'admin@polyindex.test');
  await page.goto('/admin/markets?city=indore');
  await expect(page.locator('form[data-admin-form]').first()).toHaveAttribute('data-ready', 'true');
  await page.getByLabel('PVC Injection price').fill('123.45');
  await page.getByLabel('PVC Injection price').locator('..').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'City price saved.' })).toBeVisible();
  await expect(page.getByLabel('PVC Injection price')).toHaveValue('123.45');

  const premium = await browser.newContext();
  await signInByApi(premium.request, 'premium@polyindex.test');
  const view = await premium.newPage();
  await view.goto('/indian-bazaar/citywise?city=indore');
  await expect(view.locator('main')).toContainText('123.45');
  await premium.close();
});

test('the admin saves offers as JSON; bad JSON is refused at the field', async ({ page }) => {
  await signInAs(page, 'admin@polyindex.test');
  await page.goto('/admin/markets?country=Nepal&offerDate=2015-06-10');
  const form = page.locator('form[data-json-field="data"]');
  await expect(form).toHaveAttribute('data-ready', 'true');
  const field = form.getByLabel(/Offers of 2015-06-10/);
  await field.fill('{ "PP": { "Raffia": 1099 ');
  await form.getByRole('button', { name: 'Save offers' }).click();
  await expect(form.getByRole('status')).toHaveText('The data field is not valid JSON.');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await field.fill('{ "PP": { "Raffia": 1099, "Film": 1125 } }');
  await form.getByRole('button', { name: 'Save offers' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Offers saved.' })).toBeVisible();
  await expect(page.locator('form[data-json-field="data"] textarea')).toContainText('"Film": 1125');
});

test('non-admins meet the 404 page on /admin/markets', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  const response = await page.goto('/admin/markets');
  expect(response?.status()).toBe(404);
});
