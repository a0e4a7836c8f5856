/**
 * The admin area in Chromium on the real server: an administrator finds a fresh account, grants
 * it a plan, the account's own session sees what the plan unlocks, and the audit log shows it.
 * Fresh accounts only: the demo accounts stay as other specs expect them.
 */
import { expect, test, type Page } from '@playwright/test';
import { baseURL } from './env.ts';
import { signInAs, signInByApi, signInNewAccount, uniqueEmail } from './helpers/auth.ts';
import { seriousViolationsInMain } from './helpers/axe.ts';
import { STORELESS } from './sites.ts';

/** Today + n days as an ISO date in India (the date input's value). */
const indianDatePlus = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + days * 86_400_000));

async function openUser(page: Page, email: string): Promise<void> {
  await page.goto('/admin/users');
  await page.getByLabel('E-mail, phone or uid').fill(email);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByTestId('result-count')).toContainText('1 user matching');
  await page.getByRole('link', { name: email }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(email);
  // The forms are live once the script has taken them over.
  await expect(page.locator('form[data-done="grant"]')).toHaveAttribute('data-ready', 'true');
}

async function grant(page: Page, plan: string, until?: string): Promise<void> {
  const form = page.locator('form[data-done="grant"]');
  await form.getByLabel('Plan').selectOption(plan);
  if (until) await form.getByLabel(/Valid until/).fill(until);
  await form.getByRole('button', { name: 'Grant plan' }).click();
  await expect(page.getByTestId('done')).toHaveText('Plan granted.');
  await expect(page.getByTestId('plan-state')).toContainText(plan);
}

test('an admin grants a plan; the user sees what it unlocks; the audit log shows who did what', async ({ page, browser }) => {
  test.slow(); // two browser contexts, several pages each
  const email = uniqueEmail('granted');
  // The account signs in once in its own browser, which creates its record.
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  await signInNewAccount(userPage, email);

  await signInAs(page, 'admin@polyindex.test');
  await page.goto('/');
  await expect(page.getByTestId('admin-panel')).toHaveAttribute('href', '/admin');
  await page.getByTestId('admin-panel').click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId('users-summary')).toBeVisible();

  // Basic first: a new account's trial opens every screen, Basic closes the data screens again.
  await openUser(page, email);
  await grant(page, 'Basic');
  await userPage.goto('/crude');
  await expect(userPage).toHaveURL(`${baseURL}/?locked=feedstock`);

  // Then Premium with a chosen expiry.
  const until = indianDatePlus(30);
  await grant(page, 'Premium', until);
  await expect(page.getByTestId('record').locator('[data-field="plan"]')).toHaveText('Premium');
  await expect(page.getByTestId('record').locator('[data-field="expiresAt"]')).toContainText(until);

  const crude = await userPage.goto('/crude');
  expect(crude?.status()).toBe(200);
  await expect(userPage).toHaveURL(`${baseURL}/crude`);
  await expect(userPage.getByRole('banner').getByTestId('subscribed')).toContainText('Subscribed · Premium');
  await userContext.close();

  // The audit log: newest first, who, what, old → new (other specs may add entries meanwhile).
  await page.goto('/admin/audit');
  const newest = page.getByTestId('audit-table').locator('tbody tr', { hasText: email }).first();
  await expect(newest).toHaveAttribute('data-action', 'user.grant');
  await expect(newest).toContainText('admin@polyindex.test');
  await expect(newest).toContainText('Granted a plan');
  await expect(newest).toContainText('plan: Basic → Premium');
  await newest.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(email);
  await expect(page.getByTestId('audit-table').locator('tbody tr')).toHaveCount(2);
});

test('an admin cannot take their own admin role away; the form says why', async ({ page }) => {
  await signInAs(page, 'admin@polyindex.test');
  await page.goto('/admin/users/demo-admin');
  const form = page.locator('form[data-done="role"]');
  await expect(form).toHaveAttribute('data-ready', 'true');
  await form.getByLabel('Role').selectOption('user');
  await form.getByRole('button', { name: 'Save role' }).click();
  await expect(form.locator('[data-form-status]')).toContainText('cannot remove your own admin role');
  await expect(form.getByLabel('Role')).toHaveAttribute('aria-invalid', 'true');
  await page.reload();
  await expect(page.getByTestId('record').locator('[data-field="role"]')).toHaveText('admin');
});

test('a grant with an expiry in the past is refused with the field marked', async ({ page, browser }) => {
  const email = uniqueEmail('past');
  const userContext = await browser.newContext();
  await signInNewAccount(await userContext.newPage(), email);
  await userContext.close();
  await signInAs(page, 'admin@polyindex.test');
  await openUser(page, email);
  const form = page.locator('form[data-done="grant"]');
  // The date input's min stops a person; the server refuses whatever reaches it.
  await form.getByLabel(/Valid until/).evaluate((input: HTMLInputElement) => input.removeAttribute('min'));
  await form.getByLabel(/Valid until/).fill(indianDatePlus(-3));
  await form.getByRole('button', { name: 'Grant plan' }).click();
  await expect(form.locator('[data-form-status]')).toContainText('already passed');
  await expect(form.getByLabel(/Valid until/)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('plan-state')).toContainText('No plan');
});

test('non-admins: the admin pages are a 404, the admin API a 401 or 403', async ({ page, playwright }) => {
  const anonymous = await playwright.request.newContext({ baseURL });
  const toRegister = await anonymous.get('/admin/users', { maxRedirects: 0 });
  expect(toRegister.status()).toBe(302);
  expect(toRegister.headers()['location']).toBe('/register?next=%2Fadmin%2Fusers');
  expect((await anonymous.post('/api/admin/users/demo-free/grant', { data: { plan: 'Premium' }, headers: { Origin: baseURL } })).status()).toBe(401);
  await anonymous.dispose();

  for (const email of ['premium@polyindex.test', 'basic@polyindex.test', 'free@polyindex.test']) {
    const request = await playwright.request.newContext({ baseURL });
    await signInByApi(request, email);
    for (const path of ['/admin', '/admin/users', '/admin/users/demo-free', '/admin/audit']) {
      expect((await request.get(path, { maxRedirects: 0 })).status(), `${email} ${path}`).toBe(404);
    }
    const refused = await request.post('/api/admin/users/demo-free/grant', { data: { plan: 'Premium' }, headers: { Origin: baseURL } });
    expect(refused.status(), email).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'forbidden' } });
    expect((await request.get('/api/admin/audit')).status()).toBe(403);
    await request.dispose();
  }

  // In the browser: the premium user sees the site's 404 page, and no Admin Panel link.
  await signInAs(page, 'premium@polyindex.test');
  const response = await page.goto('/admin');
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId('admin-panel')).toHaveCount(0);
});

test('the admin pages have no serious accessibility violations', { tag: STORELESS }, async ({ page }) => {
  test.slow(); // axe on four pages
  await signInAs(page, 'admin@polyindex.test');
  for (const path of ['/admin', '/admin/users', '/admin/users/demo-premium', '/admin/audit']) {
    await page.goto(path);
    expect(await seriousViolationsInMain(page), path).toEqual([]);
  }
});
