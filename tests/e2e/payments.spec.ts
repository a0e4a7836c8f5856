/**
 * Buying a plan in the embedded default (sandbox gateway) as a person would, in Chromium:
 * the pay button, the sandbox dialog, the server's verification, and what the plan unlocks.
 */
import { expect, test, type Page } from '@playwright/test';
// A new account signs in through the form where the page's stored user is checked (the form
// writes it), by the API elsewhere.
import { signInNewAccount as signIn, signInNewAccountByApi, uniqueEmail as freshEmail } from './helpers/auth.ts';
import { billingBody, giveBilling } from './helpers/billing.ts';

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
  await giveBilling(page);
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
  test.slow(); // the billing dialog, the checkout and three screens
  await signInNewAccountByApi(page, freshEmail('basic'));
  const dialog = await openCheckout(page, 'Basic');
  await expect(dialog).toContainText('₹5,500');
  await dialog.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner')).toContainText('Subscribed');

  // Home, with the notice naming the plans that open the screen (issue 21).
  await page.goto('/crude');
  await expect(page).toHaveURL(/\/\?locked=feedstock$/);
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
  test.slow(); // a sign-up through the emulator, then the API and the checkout
  await signIn(page, freshEmail('forged'));
  const origin = new URL(page.url()).origin;

  // Straight at the API: the amount is the plan table's, whatever the body says.
  const direct = await page.request.post('/api/makePayment', { data: { plan: 'Premium', amount: 1, billing: billingBody() }, headers: { origin } });
  expect(direct.status()).toBe(200);
  expect(await direct.json()).toMatchObject({ amount: 1_500_000, currency: 'INR' });
  const unknown = await page.request.post('/api/makePayment', { data: { amount: 1 }, headers: { origin } });
  expect(unknown.status()).toBe(400);

  // Through the page, with the browser's request rewritten on the way out.
  await page.route('**/api/makePayment', (route) => route.continue({ postData: JSON.stringify({ ...(route.request().postDataJSON() as object), plan: 'Premium', amount: 1 }) }));
  const dialog = await openCheckout(page, 'Premium');
  await expect(dialog).toContainText('₹15,000');
  await dialog.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await storedUser(page)).toMatchObject({ subscribed: true, plan: 'Premium', subscriptionAmount: 15_000 });
});

test('a forged signature changes nothing', async ({ page }) => {
  await signInNewAccountByApi(page, freshEmail('forgedsig'));
  const origin = new URL(page.url()).origin;
  const order = await (await page.request.post('/api/makePayment', { data: { plan: 'Premium', billing: billingBody() }, headers: { origin } })).json();
  const verify = await page.request.post('/api/payments/verify', {
    data: { razorpay_order_id: order.id, razorpay_payment_id: 'pay_forged', razorpay_signature: 'a'.repeat(64) },
    headers: { origin },
  });
  expect(verify.status()).toBe(400);
  await page.goto('/subscription');
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByTestId('current-plan')).toHaveCount(0);
});

/**
 * Razorpay mode in the browser. The Checkout script cannot load offline, so `window.Razorpay`
 * is stubbed and the server's answer is relabelled `razorpay`; the stub hands its handler a
 * result the server really signed (the sandbox), so the verify path is the real one.
 */
test.describe('the Razorpay Checkout path', () => {
  test.beforeEach(async ({ page }) => {
    await page.route('**/api/makePayment', async (route) => {
      const response = await route.fetch();
      const order = await response.json();
      await route.fulfill({ response, json: { ...order, mode: 'razorpay', key: 'rzp_test_stub' } });
    });
  });

  const stubCheckout = (page: Page) =>
    page.addInitScript(() => {
      const w = window as unknown as Record<string, unknown>;
      w['Razorpay'] = class {
        handlers: Record<string, (r: unknown) => void> = {};
        options: Record<string, unknown>;
        constructor(options: Record<string, unknown>) {
          this.options = options;
        }
        on(event: string, handler: (r: unknown) => void) {
          this.handlers[event] = handler;
        }
        open() {
          w['__checkout'] = this;
        }
      };
    });

  test('opens Checkout with the server order and prefill, and the handler verifies on the server', async ({ page }) => {
    await stubCheckout(page);
    const email = freshEmail('rzp');
    await signIn(page, email);
    await page.goto('/subscription');
    await page.locator('[data-plan="Premium"]').getByRole('button', { name: /^Pay / }).click();
    await giveBilling(page);
    await page.waitForFunction(() => '__checkout' in window);
    const options = await page.evaluate(() => (window as unknown as { __checkout: { options: Record<string, unknown> } }).__checkout.options);
    expect(options).toMatchObject({ key: 'rzp_test_stub', amount: 1_500_000, currency: 'INR', name: 'PolyIndex', prefill: { email } });
    expect(String(options['order_id'])).toMatch(/^order_/);

    await page.evaluate(async () => {
      const checkout = (window as unknown as { __checkout: { options: { order_id: string; handler: (r: unknown) => void } } }).__checkout;
      const signed = await fetch('/api/payments/sandbox/complete', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ order_id: checkout.options.order_id, outcome: 'pay' }),
      }).then((r) => r.json());
      checkout.options.handler(signed);
    });
    await expect(page).toHaveURL(/\/$/);
    expect(await storedUser(page)).toMatchObject({ subscribed: true, plan: 'Premium' });
  });

  test('payment.failed alerts and a dismissed Checkout saves nothing', async ({ page }) => {
    const alerts = alertsOf(page);
    await stubCheckout(page);
    await signInNewAccountByApi(page, freshEmail('rzpfail'));
    await page.goto('/subscription');
    const button = page.locator('[data-plan="Standard"]').getByRole('button', { name: /^Pay / });
    await button.click();
    await giveBilling(page);
    await page.waitForFunction(() => '__checkout' in window);
    await page.evaluate(() => {
      const checkout = (window as unknown as { __checkout: { handlers: Record<string, (r: unknown) => void>; options: { modal: { ondismiss: () => void } } } }).__checkout;
      checkout.handlers['payment.failed']?.({ error: { code: 'BAD_REQUEST_ERROR', description: 'Payment failed' } });
      checkout.options.modal.ondismiss();
    });
    await expect.poll(() => alerts).toEqual([PAYMENT_FAILED]);
    await expect(button).toBeEnabled();
    await page.reload();
    await expect(page.getByTestId('current-plan')).toHaveCount(0);
  });

  test('a Checkout script that cannot load alerts "Razorpay SDK Failed to load"', async ({ page }) => {
    const alerts = alertsOf(page);
    await page.route('https://checkout.razorpay.com/**', (route) => route.abort());
    await signInNewAccountByApi(page, freshEmail('rzpsdk'));
    await page.goto('/subscription');
    await page.locator('[data-plan="Basic"]').getByRole('button', { name: /^Pay / }).click();
    await giveBilling(page);
    await expect.poll(() => alerts).toEqual(['Razorpay SDK Failed to load']);
  });
});
