/**
 * Buying a plan in the embedded default (sandbox gateway) as a person would, in Chromium:
 * the pay button, the sandbox dialog, the server's verification, and what the plan unlocks.
 */
import { expect, test, type Page } from '@playwright/test';
import { freshEmail, signIn } from './helpers/auth.ts';

const PAYMENT_FAILED = 'Payment failed. Please try again. Contact support for help';

/** Collects every alert() the page shows, accepting it. */
function alertsOf(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  return alerts;
}

const storedUser = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as Record<string, unknown> | null);

async function openCheckout(page: Page, plan: string) {
  await page.goto('/subscription');
  await page.locator(`[data-plan="${plan}"]`).getByRole('button', { name: new RegExp(`^Pay .* for ${plan}$`) }).click();
  const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('a free user buys Premium in the sandbox and the data screens open', async ({ page }) => {
  const alerts = alertsOf(page);
  await signIn(page, freshEmail('premium'));

  const dialog = await openCheckout(page, 'Premium');
  await expect(dialog).toContainText('₹15,000');
  await expect(dialog.getByRole('button', { name: 'Pay' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner')).toContainText('Subscribed');
  expect(await storedUser(page)).toMatchObject({ subscribed: true, plan: 'Premium', subscriptionAmount: 15_000 });

  const crude = await page.goto('/crude');
  expect(crude?.status()).toBe(200);
  await expect(page).toHaveURL(/\/crude$/);
  // A subscriber has nothing to buy: /subscription sends them home.
  await page.goto('/subscription');
  await expect(page).toHaveURL(/\/$/);
  expect(alerts).toEqual([]);
});

test('a Basic buyer is still sent to / from the data screens', async ({ page }) => {
  await signIn(page, freshEmail('basic'));
  const dialog = await openCheckout(page, 'Basic');
  await expect(dialog).toContainText('₹5,500');
  await dialog.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner')).toContainText('Subscribed');

  await page.goto('/crude');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/buy-sell');
  await expect(page).toHaveURL(/\/buy-sell$/);
});

test('a failed payment alerts and saves nothing', async ({ page }) => {
  const alerts = alertsOf(page);
  await signIn(page, freshEmail('failed'));
  const before = await storedUser(page);

  const dialog = await openCheckout(page, 'Premium');
  await dialog.getByRole('button', { name: 'Fail' }).click();
  await expect.poll(() => alerts).toEqual([PAYMENT_FAILED]);
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/subscription$/);
  expect(await storedUser(page)).toEqual(before);

  // Still unsubscribed on the server: /subscription stays open and shows no current plan.
  await page.reload();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByTestId('current-plan')).toHaveCount(0);
  const api = await page.request.get('/api/session');
  if (api.ok()) expect(JSON.stringify(await api.json())).not.toMatch(/"subscribed":true/);
});

test('a dismissed checkout saves nothing', async ({ page }) => {
  const alerts = alertsOf(page);
  await signIn(page, freshEmail('dismissed'));
  const before = await storedUser(page);

  const dialog = await openCheckout(page, 'Platinum');
  await dialog.getByRole('button', { name: 'Dismiss' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('[data-plan="Platinum"]').getByRole('button', { name: /^Pay / })).toBeEnabled();

  // Escape dismisses too.
  const again = await openCheckout(page, 'Platinum');
  await page.keyboard.press('Escape');
  await expect(again).toBeHidden();

  expect(alerts).toEqual([]);
  expect(await storedUser(page)).toEqual(before);
  await page.reload();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByTestId('current-plan')).toHaveCount(0);
});

test('a forged amount is ignored: the server charges the plan price', async ({ page }) => {
  await signIn(page, freshEmail('forged'));
  const origin = new URL(page.url()).origin;

  // Straight at the API: the amount is the plan table's, whatever the body says.
  const direct = await page.request.post('/api/makePayment', { data: { plan: 'Premium', amount: 1 }, headers: { origin } });
  expect(direct.status()).toBe(200);
  expect(await direct.json()).toMatchObject({ amount: 1_500_000, currency: 'INR' });
  const unknown = await page.request.post('/api/makePayment', { data: { amount: 1 }, headers: { origin } });
  expect(unknown.status()).toBe(400);

  // Through the page, with the browser's request rewritten on the way out.
  await page.route('**/api/makePayment', (route) => route.continue({ postData: JSON.stringify({ plan: 'Premium', amount: 1 }) }));
  const dialog = await openCheckout(page, 'Premium');
  await expect(dialog).toContainText('₹15,000');
  await dialog.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await storedUser(page)).toMatchObject({ subscribed: true, plan: 'Premium', subscriptionAmount: 15_000 });
});

test('a forged signature changes nothing', async ({ page }) => {
  await signIn(page, freshEmail('forgedsig'));
  const origin = new URL(page.url()).origin;
  const order = await (await page.request.post('/api/makePayment', { data: { plan: 'Premium' }, headers: { origin } })).json();
  const verify = await page.request.post('/api/payments/verify', {
    data: { razorpay_order_id: order.id, razorpay_payment_id: 'pay_forged', razorpay_signature: 'a'.repeat(64) },
    headers: { origin },
  });
  expect(verify.status()).toBe(400);
  await page.goto('/subscription');
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByTestId('current-plan')).toHaveCount(0);
});
