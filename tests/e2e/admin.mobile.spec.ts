// The admin area on a phone (Pixel 7 project): every admin page fits the screen's width; wide
// tables (the record, the audit log) scroll inside their own box.
import { expect, test } from '@playwright/test';
import { baseURL } from './env.ts';
import { ensureAccount, signInAs, signInByApi, uniqueEmail } from './helpers/auth.ts';

test('the admin pages fit a phone', async ({ page, playwright }) => {
  test.slow(); // a new account, a grant and four admin pages
  // A fresh account with one audited change, so the audit tables have rows.
  const email = uniqueEmail('phone-admin');
  const other = await playwright.request.newContext({ baseURL });
  await ensureAccount(other, email);
  await signInByApi(other, email);
  const { user } = (await (await other.get('/api/session')).json()) as { user: { uid: string } };
  await other.dispose();

  await signInAs(page, 'admin@polyindex.test');
  const granted = await page.request.post(`/api/admin/users/${user.uid}/grant`, { data: { plan: 'Platinum' }, headers: { Origin: baseURL } });
  expect(granted.status()).toBe(200);

  for (const path of ['/admin', '/admin/users', `/admin/users/${user.uid}`, '/admin/audit']) {
    await page.goto(path);
    await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(page.viewportSize()!.width);
  }
  await expect(page.getByTestId('audit-table').locator('tbody tr', { hasText: email }).first()).toBeVisible();
});
