// /compare on a phone (Pixel 7 project): the same journey as on the desktop, and the page fits the screen.
import { devices, expect, test } from '@playwright/test';
import { compareJourney, premiumUser } from './helpers/compare.ts';

test('on a phone, a Premium user compares three series in ₹/kg over 5 years, saves, reopens and downloads', async ({ browser }, testInfo) => {
  test.slow();
  const phone = devices['Pixel 7'];
  const { email, context } = await premiumUser(browser, 'compare-phone', phone);
  try {
    const page = await context.newPage();
    await compareJourney(page, browser, email, testInfo, phone);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.viewport.width);
  } finally {
    await context.close();
  }
});
