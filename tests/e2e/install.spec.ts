/**
 * "Install the app" (issue 22): a button where the browser offers installation
 * (`beforeinstallprompt`, here dispatched as Chromium would, since a test profile is never
 * offered it), the Share → Add to Home Screen steps on an iPhone, nothing where neither applies.
 */
import { expect, test, type Page } from '@playwright/test';

const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** Fires Chromium's install offer; the page's answer to the dialog is `outcome`. Resolves once the page took it. */
async function offerInstall(page: Page, outcome: 'accepted' | 'dismissed'): Promise<void> {
  await page.evaluate((choice) => {
    const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: string }> };
    const state = window as unknown as { prompted: number };
    state.prompted = 0;
    event.prompt = async () => {
      state.prompted += 1;
    };
    event.userChoice = Promise.resolve({ outcome: choice });
    window.dispatchEvent(event);
  }, outcome);
}

test('where the browser offers it, the footer has an Install button that opens the browser’s dialog', async ({ page }) => {
  await page.goto('/terms');
  const install = page.locator('footer').getByTestId('install-app');
  // Chromium in a test profile offers nothing: no button, no steps.
  await expect(page.locator('footer').getByRole('button', { name: 'Install the app' })).toBeHidden();
  await expect(install).toBeHidden();
  await offerInstall(page, 'accepted');
  const button = page.locator('footer').getByRole('button', { name: 'Install the app' });
  await expect(button).toBeVisible();
  await button.click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { prompted: number }).prompted)).toBe(1);
  // Installed: the offer goes.
  await expect(button).toBeHidden();
});

test('a dismissed dialog takes the button away until the browser offers again', async ({ page }) => {
  await page.goto('/terms');
  await offerInstall(page, 'dismissed');
  const button = page.locator('footer').getByRole('button', { name: 'Install the app' });
  await button.click();
  await expect(button).toBeHidden();
  await offerInstall(page, 'dismissed');
  await expect(button).toBeVisible();
});

test('on an iPhone the footer and the menu give the Share → Add to Home Screen steps', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: IPHONE_SAFARI });
  try {
    const page = await context.newPage();
    await page.goto('/terms');
    const footer = page.locator('footer').getByTestId('install-app');
    await expect(footer).toBeVisible();
    await expect(footer).toContainText('Add to Home Screen');
    await expect(footer.getByRole('button', { name: 'Install the app' })).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu.getByTestId('install-app')).toContainText('tap Share');
  } finally {
    await context.close();
  }
});
