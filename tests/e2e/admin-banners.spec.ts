/**
 * Banners in Chromium: the admin uploads a banner, moves it, and a visitor sees it in the home
 * carousel (the prerendered page brings itself up to date from /api/carousels/) with the image
 * served from the store (nothing under DATA_DIR/banners); removed, it is gone again.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_DATA_DIR } from './env.ts';
import { signInAs } from './helpers/auth.ts';

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test('the admin adds, moves and removes a banner; the home carousel follows', async ({ page, browser }) => {
  test.slow(); // three browser contexts, an upload and the audit log
  const title = `Teal banner ${Date.now()}`;
  const alt = `A teal square for ${title}`;
  await signInAs(page, 'admin@polyindex.test');
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
  // The uploaded image comes from the store: its bytes, a strong ETag (sha256), 304 when unchanged.
  const src = await slide.getByRole('img', { name: alt }).getAttribute('src');
  expect(src).toMatch(/^\/api\/carousels\/images\/[0-9a-f-]{36}\.png$/);
  const image = await home.request.get(src!);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/png');
  expect(image.headers()['cache-control']).toContain('immutable');
  expect(Buffer.from(await image.body()).equals(PNG_1X1)).toBe(true);
  const etag = `"${createHash('sha256').update(PNG_1X1).digest('hex')}"`;
  expect(image.headers()['etag']).toBe(etag);
  expect((await home.request.get(src!, { headers: { 'If-None-Match': etag } })).status()).toBe(304);
  expect(existsSync(join(E2E_DATA_DIR, 'banners'))).toBe(false);
  await visitor.close();

  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: `Remove “${title}”` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Banner removed.' })).toBeVisible();
  await expect(page.getByTestId('banners')).not.toContainText(title);
  expect((await page.request.get(src!)).status()).toBe(404);

  const later = await browser.newContext();
  const again = await later.newPage();
  await again.goto('/');
  await expect(again.locator('[data-carousel] a.slide').first()).toBeVisible();
  await expect(again.locator('[data-carousel]')).not.toContainText(title);
  await later.close();

  // Other specs write audit entries at the same time: find this banner's, not the newest row.
  await page.goto('/admin/audit');
  const removal = page.getByTestId('audit-table').locator('tbody tr[data-action="banner.remove"]').filter({ hasText: title });
  await expect(removal).toHaveCount(1);
  await expect(removal).toContainText('Removed a banner');
});
