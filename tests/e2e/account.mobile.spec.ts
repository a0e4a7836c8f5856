// Issue 21 on a phone: the visitor's journey from /pricing to an IGST invoice downloaded from
// /account, and /account and the billing dialog never wider than the screen.
import { expect, test } from '@playwright/test';
import { invoiceOnAccount, visitorBuysPremium } from './helpers/account.ts';

test('on a phone, a visitor picks Premium, pays with a GSTIN in another state and downloads an IGST invoice', async ({ page }) => {
  test.slow();
  await visitorBuysPremium(page, 'gst-phone');
  await invoiceOnAccount(page, { taxes: [/IGST/, /24AAACR5055K1ZD/], absent: [/CGST/], amount: '₹15,000' });
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
  // The upgrade to Platinum is offered with its prorated price.
  await expect(page.locator('.offer[data-plan="Platinum"]').getByRole('button', { name: /^Upgrade to Platinum for ₹/ })).toBeVisible();
});
