import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signInByApi } from './helpers/auth.ts';

/** @axe-core/playwright's peer playwright-core resolves to another patch release than @playwright/test's: same API. */
type AxePage = ConstructorParameters<typeof AxeBuilder>[0]['page'];

async function violations(page: Page) {
  const results = await new AxeBuilder({ page: page as unknown as AxePage }).analyze();
  return results.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
}

// axe-core finds nothing on the pages search-engine visitors and buyers land on.
for (const path of ['/', '/news/2026-11-21-how-to-read-cif-nhava-sheva-landed-cost', '/news/2026-11-10-pvc-outlook-post-diwali', '/news', '/contact', '/register']) {
  test(`axe: ${path}`, async ({ page }) => {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(await violations(page)).toEqual([]);
  });
}

test('axe: /subscription (free@)', async ({ page, context }) => {
  await signInByApi(context.request, 'free@polyindex.test');
  await page.goto('/subscription');
  await expect(page).toHaveURL('/subscription');
  await page.waitForLoadState('networkidle');
  expect(await violations(page)).toEqual([]);
});

test('axe: /buy-sell with its enquiry form (free@)', async ({ page, context }) => {
  await signInByApi(context.request, 'free@polyindex.test');
  await page.goto('/buy-sell');
  await page.getByTestId('enquiry-buy-sell').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('enquiry-buy-sell').getByRole('button')).toBeEnabled();
  expect(await violations(page)).toEqual([]);
});
