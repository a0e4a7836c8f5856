import { expect, test, type Page } from '@playwright/test';

async function openMenu(page: Page) {
  await page.goto('/terms');
  const toggle = page.getByRole('button', { name: 'Open menu' });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close menu' })).toBeFocused();
  return { toggle, menu };
}

async function swipe(page: Page, fromX: number, toX: number) {
  const box = (await page.locator('#mobile-menu').boundingBox())!;
  const y = box.y + 200;
  await page.locator('#mobile-menu').dispatchEvent('touchstart', { touches: [{ identifier: 1, clientX: fromX, clientY: y }], changedTouches: [{ identifier: 1, clientX: fromX, clientY: y }] });
  await page.locator('#mobile-menu').dispatchEvent('touchend', { touches: [], changedTouches: [{ identifier: 1, clientX: toX, clientY: y }] });
}

test('the slide-in menu closes with Escape and gives focus back', async ({ page }) => {
  const { toggle, menu } = await openMenu(page);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();
});

test('a left swipe of more than 50 px closes the menu; a shorter one does not', async ({ page }) => {
  const { menu } = await openMenu(page);
  await swipe(page, 250, 210);
  await expect(menu).toBeVisible();
  await swipe(page, 250, 180);
  await expect(menu).toBeHidden();
});

test('the menu lists every section and its pages', async ({ page }) => {
  const { menu } = await openMenu(page);
  await menu.getByText('Feedstock', { exact: true }).click();
  await expect(menu.getByRole('link', { name: 'Naphtha' })).toBeVisible();
  await menu.getByText('VIP Delegations', { exact: true }).click();
  await expect(menu.getByRole('link', { name: '2025', exact: true })).toBeVisible();
});

test('page content keeps a margin from the screen edges on a phone', async ({ page }) => {
  await page.goto('/terms');
  const box = (await page.locator('main h1').first().boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x).toBeGreaterThanOrEqual(12);
  expect(box.x + box.width).toBeLessThanOrEqual(width - 12);
});
