/**
 * Banners in Chromium: the admin uploads a banner, moves it, and a visitor sees it in the home
 * carousel (the prerendered page brings itself up to date from /api/carousels/); removed, it is
 * gone again.
 */
import { expect, test } from '@playwright/test';
import { signIn } from './helpers/auth.ts';

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test('the admin adds, moves and removes a banner; the home carousel follows', async ({ page, browser }) => {
  const title = `Teal banner ${Date.now()}`;
  const alt = `A teal square for ${title}`;
  await signIn(page, 'admin@polyindex.test');
  await page.goto('/admin/banners');
  const form = page.locator('form[action="/api/admin/banners"]');
  await expect(form).toHaveAttribute('data-ready', 'true');

  // Without alt text the server refuses it, beside the field.
  await form.getByLabel(/^Image/).setInputFiles({ name: 'teal.png', mimeType: 'image/png', buffer: PNG_1X1 });
  await form.getByLabel(/^Title/).fill(title);
  await form.getByLabel(/^Link/).fill('/crude/Naphtha');
  await form.getByLabel(/^Alt text/).evaluate((input: HTMLInputElement) => input.removeAttribute('required'));
  await form.getByRole('button', { name: 'Add banner' }).click();
  await expect(form.locator('[data-form-status]')).toContainText('alt text');

  await form.getByLabel(/^Alt text/).fill(alt);
  await form.getByRole('button', { name: 'Add banner' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Banner added.' })).toBeVisible();
  const items = page.getByTestId('banners').locator('li');
  await expect(items.last()).toContainText(title);
  const count = await items.count();

  await page.getByRole('button', { name: `Move “${title}” up` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Banner moved.' })).toBeVisible();
  await expect(items.nth(count - 2)).toContainText(title);

  const visitor = await browser.newContext();
  const home = await visitor.newPage();
  await home.goto('/');
  const slide = home.locator('[data-carousel] a.slide', { has: home.getByRole('img', { name: alt }) });
  await expect(slide).toHaveAttribute('href', '/crude/Naphtha');
  await expect(home.locator('[data-carousel] a.slide').nth(count - 2)).toContainText(title);
  await visitor.close();

  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: `Remove “${title}”` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Banner removed.' })).toBeVisible();
  await expect(page.getByTestId('banners')).not.toContainText(title);

  const later = await browser.newContext();
  const again = await later.newPage();
  await again.goto('/');
  await expect(again.locator('[data-carousel] a.slide').first()).toBeVisible();
  await expect(again.locator('[data-carousel]')).not.toContainText(title);
  await later.close();

  await page.goto('/admin/audit');
  await expect(page.getByTestId('audit-table').locator('tbody tr').first()).toContainText('Removed a banner');
});
