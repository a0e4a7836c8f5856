import { expect, test } from '@playwright/test';
import { signInAs } from './helpers/auth.ts';
import { violations } from './helpers/axe.ts';

// axe-core finds nothing on the pages search-engine visitors and buyers land on.
for (const path of ['/', '/news/2026-11-21-how-to-read-cif-nhava-sheva-landed-cost', '/news/2026-11-10-pvc-outlook-post-diwali', '/news', '/contact', '/register']) {
  test(`axe: ${path}`, async ({ page }) => {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(await violations(page)).toEqual([]);
  });
}

test('axe: /subscription (free@)', async ({ page, context }) => {
  await signInAs(context, 'free@polyindex.test');
  await page.goto('/subscription');
  await expect(page).toHaveURL('/subscription');
  await page.waitForLoadState('networkidle');
  expect(await violations(page)).toEqual([]);
});

test('axe: /buy-sell with its enquiry form (free@)', async ({ page, context }) => {
  await signInAs(context, 'free@polyindex.test');
  await page.goto('/buy-sell');
  await page.getByTestId('enquiry-buy-sell').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('enquiry-buy-sell').getByRole('button')).toBeEnabled();
  expect(await violations(page)).toEqual([]);
});
