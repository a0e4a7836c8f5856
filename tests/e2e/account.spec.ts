// Issue 21 in Chromium (desktop): a visitor compares plans, picks Premium, signs up and pays with a
// GSTIN of another state, and downloads an IGST invoice from /account; an intra-state buyer's
// invoice shows CGST + SGST; a mid-term upgrade charges the prorated difference. The phone
// journey is account.mobile.spec.ts.
import { expect, test } from '@playwright/test';
import { signInNewAccountByApi, uniqueEmail } from './helpers/auth.ts';
import { buy, downloadedPdf, INTRA_STATE, invoiceOnAccount, paySandbox, visitorBuysPremium } from './helpers/account.ts';
import { giveBilling } from './helpers/billing.ts';
import { violations } from './helpers/axe.ts';

test('a visitor picks Premium on /pricing, pays with a GSTIN in another state and downloads an IGST invoice', async ({ page }) => {
  test.slow(); // sign-up, checkout, /account and a PDF
  await visitorBuysPremium(page, 'gst-inter');
  const text = await invoiceOnAccount(page, { taxes: [/IGST/, /24AAACR5055K1ZD/, /Karnavati Polymers Private Limited/, /Gujarat \(24\)/], absent: [/CGST/, /SGST/], amount: '₹15,000' });
  expect(text).toMatch(/Rupees Fifteen Thousand Only/);
  await expect(page.getByTestId('plan-name')).toHaveText('Premium');
  await expect(page.getByTestId('plan-end')).toBeVisible();
  // The pointer leaves the link it clicked (the site's hover colour is not what axe should judge).
  await page.mouse.move(0, 0);
  expect(await violations(page)).toEqual([]);
});

test("an intra-state buyer's invoice shows CGST and SGST", async ({ page }) => {
  test.slow();
  await signInNewAccountByApi(page, uniqueEmail('gst-intra'));
  await page.goto('/subscription');
  await buy(page, 'Basic', '₹5,500', INTRA_STATE);
  await invoiceOnAccount(page, { taxes: [/CGST/, /SGST/, /Thane Plastics/, /Maharashtra \(27\)/], absent: [/IGST/], amount: '₹5,500' });
});

test('a mid-term upgrade from /account charges the price less the unused days', async ({ page }) => {
  test.slow();
  await signInNewAccountByApi(page, uniqueEmail('upgrade'));
  await page.goto('/subscription');
  await buy(page, 'Basic', '₹5,500', INTRA_STATE);

  await page.goto('/account');
  await expect(page.getByTestId('plan-name')).toHaveText('Basic');
  // Bought today: 364 unused days (a day begun counts as used) of ₹5,500 a year = ₹5,484.93.
  const offer = page.locator('.offer[data-plan="Premium"]');
  await expect(offer).toContainText('₹15,000 less ₹5,484.93 for the 364 unused days of Basic');
  const upgrade = offer.getByRole('button', { name: 'Upgrade to Premium for ₹9,515.07' });
  await expect(upgrade).toBeEnabled();
  // The renewal of Basic is on offer too; Standard is dearer, so it is an upgrade as well.
  await expect(page.locator('.offer[data-plan="Basic"]').getByRole('button', { name: 'Renew Basic for ₹5,500' })).toBeVisible();
  await upgrade.click();
  // The billing details given at the first payment are prefilled.
  const billing = page.getByRole('dialog', { name: 'Billing details' });
  await expect(billing.getByLabel('Legal name')).toHaveValue(INTRA_STATE.legalName);
  await giveBilling(page, INTRA_STATE);
  await paySandbox(page, '₹9,515.07');
  await expect(page).toHaveURL(/\/account\?paid=1$/);
  await expect(page.getByTestId('paid-notice')).toBeVisible();
  await expect(page.getByTestId('plan-name')).toHaveText('Premium');
  const row = page.getByTestId('invoices').getByRole('listitem').filter({ hasText: '(upgrade)' });
  await expect(row).toContainText('₹9,515.07');
  const { text } = await downloadedPdf(page, row.getByRole('link', { name: /^Download/ }));
  expect(text).toMatch(/upgrade from Basic;\s+₹5,484\.93 credited for its unused days/);
  expect(text).toMatch(/Rupees Nine Thousand Five Hundred Fifteen and Seven Paise Only/);
  // Premium opens the data screens at once.
  expect((await page.goto('/crude'))?.status()).toBe(200);
});

test('/account signs a visitor in first, and another buyer cannot fetch an invoice', async ({ page, browser }) => {
  test.slow();
  const anonymous = await browser.newContext();
  try {
    const visitor = await anonymous.newPage();
    await visitor.goto('/account');
    await expect(visitor).toHaveURL(/\/register\?next=%2Faccount$/);
  } finally {
    await anonymous.close();
  }
  await signInNewAccountByApi(page, uniqueEmail('gst-owner'));
  await page.goto('/subscription');
  await buy(page, 'Basic', '₹5,500', INTRA_STATE);
  await page.goto('/account');
  const href = (await page.getByTestId('invoices').getByRole('link', { name: /^Download/ }).first().getAttribute('href'))!;
  expect((await page.request.get(href)).status()).toBe(200);
  const stranger = await browser.newContext();
  try {
    const other = await stranger.newPage();
    await signInNewAccountByApi(other, uniqueEmail('gst-stranger'));
    expect((await other.request.get(href)).status()).toBe(404);
  } finally {
    await stranger.close();
  }
});
