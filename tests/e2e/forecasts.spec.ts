// Forecast pages in Chromium against the production build (demo prices, the demo desk's calls
// seeded into the store on the first start): a subscriber's future-trend page with the open call and
// its fans, and the public track record an anonymous visitor sees: matured calls only, no prices.
import { expect, test } from '@playwright/test';
import { signInByApi } from './helpers/auth.ts';
import { violations } from './helpers/axe.ts';

test('a Premium trader sees the open call, the fans, the scoreboard and every call of the horizon', async ({ page }) => {
  test.slow();
  await signInByApi(page.context().request, 'premium@polyindex.test');
  await page.goto('/future-trend/PP');
  const call = page.getByTestId('open-call');
  await expect(call.getByRole('heading', { name: 'The desk’s 1-week call' })).toBeVisible();
  await expect(call.getByTestId('call-direction')).toHaveText(/Up|Flat|Down/);
  await expect(call.getByTestId('call-range')).toContainText('US$/t');
  await expect(call.getByTestId('baseline-call')).toContainText('80% interval');
  // The chart carries the desk's range and the baseline's interval as shaded fans.
  await expect(page.getByRole('region', { name: /^Outlook: / }).locator('.chart-bands path')).toHaveCount(2);
  const board = page.getByTestId('scoreboard');
  await expect(board.getByTestId('desk-Calls scored')).toHaveText(/^\d+$/);
  // The newest call is still open; the ones below it have outcomes in prices.
  const rows = page.getByTestId('call-history').getByTestId('call-row');
  await expect(rows.first()).toHaveAttribute('data-status', 'open');
  await expect(page.getByTestId('call-history').locator('[data-status="scored"]').first()).toContainText(/In range|Out of range/);

  await page.getByTestId('horizon-tabs').getByRole('link', { name: '3 months' }).click();
  await expect(page).toHaveURL(/horizon=3m$/);
  await expect(call.getByRole('heading', { name: 'The desk’s 3-month call' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await violations(page)).toEqual([]);
});

test('an anonymous visitor sees the track record of matured calls, as changes, and not the open calls', async ({ page }) => {
  test.slow();
  const answer = await page.goto('/future-trend/PP/track-record');
  expect(answer?.status()).toBe(200);
  expect(answer?.headers()['cache-control']).toContain('public');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Polypropylene (PP): the desk’s track record');
  await expect(page.getByTestId('scoreboard')).toBeVisible();
  const rows = page.getByTestId('call-history').getByTestId('call-row');
  await expect(rows.first()).toBeVisible();
  for (const status of await rows.evaluateAll((list) => list.map((row) => row.getAttribute('data-status')))) expect(['scored', 'awaiting', 'withdrawn']).toContain(status);
  // Changes from each call's base, never a price level.
  await expect(rows.first()).toContainText('%');
  const text = await page.locator('main').innerText();
  expect(text).not.toMatch(/\d,\d{3}/);
  expect(text).not.toContain('US$/t');
  // Search-engine visitors land here: axe finds nothing.
  await page.waitForLoadState('networkidle');
  expect(await violations(page)).toEqual([]);

  // The open calls are a subscriber's: the outlook sends an anonymous visitor to sign in.
  await page.getByTestId('open-calls-link').click();
  await expect(page).toHaveURL(/\/register\?next=%2Ffuture-trend%2FPP$/);
});
