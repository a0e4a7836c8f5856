// /pricing on a phone: one card per plan with the same rows as the wide table, nothing wider than
// the screen, and "Choose" on each card.
import { expect, test } from '@playwright/test';
import { violations } from './helpers/axe.ts';

test('a phone gets the plans as cards with the same rows, and the page never scrolls sideways', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByTestId('plan-table')).toBeHidden();
  const cards = page.getByRole('list', { name: 'Plans' }).getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2 }) });
  await expect(cards).toHaveCount(4);
  const premium = page.locator('.plan-card[data-plan="Premium"]');
  await expect(premium.getByRole('heading', { name: 'Premium' })).toBeVisible();
  await expect(premium.locator('[data-row="history"] dd')).toHaveText('5 years (this year and the 5 before it)');
  await expect(premium.locator('[data-row="before-tax"] dd')).toHaveText('₹12,711.86 + ₹2,288.14 GST');
  await expect(page.locator('.plan-card[data-plan="Basic"] [data-row="daily"] dd')).toContainText('Benchmarks: Crude oil · Brent');
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
  expect(await violations(page)).toEqual([]);
  await premium.getByRole('link', { name: 'Choose Premium' }).click();
  await expect(page).toHaveURL(/\/register\?plan=Premium$/);
});
