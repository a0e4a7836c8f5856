/**
 * Price administration in Chromium on the real server: the admin enters today's Brent price
 * through the form and a Premium user, signed in separately, sees it as the latest price on
 * /crude/Crude; the admin imports a small CSV through the paste form with its preview; and the
 * new pages and endpoints are refused to everyone else.
 */
import { expect, test } from '@playwright/test';
import { baseURL } from './env.ts';
import { signInAs, signInByApi } from './helpers/auth.ts';
import { seriousViolationsInMain } from './helpers/axe.ts';
import { STORELESS } from './sites.ts';

const todayInIndia = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

test("the admin enters today's Brent price; a Premium user sees it as the latest price", async ({ page, browser }) => {
  test.slow(); // two browser contexts and the audit log
  const today = todayInIndia();
  await signInAs(page, 'admin@polyindex.test');
  await page.goto('/admin/prices');
  await page.getByLabel('Series').selectOption('feedstock.crude.brent');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByTestId('series-heading')).toHaveText('Crude oil · Brent');
  await expect(page.locator('form[data-admin-form]').first()).toHaveAttribute('data-ready', 'true');

  // A day that has a value is changed in its row; a new day is added with the add form.
  const row = page.locator(`tr[data-date="${today}"]`);
  if ((await row.count()) > 0) {
    await row.getByRole('textbox').fill('88.88');
    await row.getByRole('button', { name: 'Save' }).click();
  } else {
    const add = page.locator('form.add');
    await expect(add.getByLabel('Date')).toHaveValue(today);
    await add.getByLabel(/Value/).fill('88.88');
    await add.getByRole('button', { name: 'Save' }).click();
  }
  await expect(page.getByRole('status').filter({ hasText: 'Price saved.' })).toBeVisible();
  await expect(page.locator(`tr[data-date="${today}"] input[name="value"]`)).toHaveValue('88.88');

  // Out of range: refused beside the field, nothing saved.
  const todayRow = page.locator(`tr[data-date="${today}"]`);
  await todayRow.getByRole('textbox').fill('8888');
  await todayRow.getByRole('button', { name: 'Save' }).click();
  await expect(todayRow.locator('form[action$="/set"] [data-form-status]')).toContainText('between 5 and 500');

  const premiumContext = await browser.newContext();
  const premium = await premiumContext.newPage();
  await signInAs(premium, 'premium@polyindex.test');
  await premium.goto('/crude/Crude');
  await expect(premium.getByTestId('stat-latest')).toContainText('88.88');
  await premiumContext.close();

  await page.goto('/admin/audit?target=series%3Afeedstock.crude.brent');
  await expect(page.getByTestId('audit-table').locator('tbody tr').first()).toContainText('admin@polyindex.test');
});

test('the admin imports a small CSV through the paste form, with a preview first', async ({ page }) => {
  await signInAs(page, 'admin@polyindex.test');
  await page.goto('/admin/prices/import');
  await expect(page.locator('form[data-import-form]')).toHaveAttribute('data-ready', 'true');
  const status = page.locator('[data-import-status]');

  // A bad line: the preview names it and nothing can be imported.
  await page.getByLabel('or the CSV text').fill('series,date,value\nfx.usdinr,2020-02-01,83.1\nfx.usdinr,2020-02-02,830\n');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(status).toContainText('Line 3, value');
  await expect(page.locator('[data-import-result] li')).toContainText('between 40 and 200');
  await expect(page.getByRole('button', { name: 'Import' })).toBeDisabled();

  const csv = 'series,date,value\nfx.usdinr,2020-02-01,84.25\nfx.usdinr,2020-02-02,84.5\nfeedstock.crude.brent,2020-02-01,61.75\n';
  await page.getByLabel('or the CSV text').fill(csv);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(status).toContainText('Preview: 3 rows in 2 series; 3 new or changed. Nothing is written yet.');
  await expect(page.locator('[data-import-result] tr[data-series="fx.usdinr"]')).toContainText('2');
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(status).toContainText('Imported: 3 rows in 2 series; 3 new or changed.');

  // The same file again changes nothing.
  await page.getByLabel('or the CSV text').fill(csv);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(status).toContainText('3 rows in 2 series; 0 new or changed');

  await page.goto('/admin/audit?target=prices%3Aimport');
  await expect(page.getByTestId('audit-table').locator('tbody tr').first()).toContainText('admin@polyindex.test');
});

test('non-admins: the price, banner and outbox pages are a 404, the price API a 401 or 403', async ({ playwright }) => {
  const pages = ['/admin/prices', '/admin/prices?series=fx.usdinr', '/admin/prices/import', '/admin/outbox', '/admin/banners'];
  const anonymous = await playwright.request.newContext({ baseURL });
  for (const path of pages) expect((await anonymous.get(path, { maxRedirects: 0 })).status(), path).toBe(302);
  const csv = { headers: { Origin: baseURL, 'Content-Type': 'text/csv' }, data: 'series,date,value\nfx.usdinr,2003-03-05,50\n' };
  expect((await anonymous.post('/api/admin/prices/import', csv)).status()).toBe(401);
  expect((await anonymous.post('/api/admin/prices/fx.usdinr/set', { headers: { Origin: baseURL }, data: { date: '2003-03-05', value: 50 } })).status()).toBe(401);
  await anonymous.dispose();
  for (const email of ['premium@polyindex.test', 'basic@polyindex.test', 'free@polyindex.test']) {
    const request = await playwright.request.newContext({ baseURL });
    await signInByApi(request, email);
    for (const path of pages) expect((await request.get(path, { maxRedirects: 0 })).status(), `${email} ${path}`).toBe(404);
    expect((await request.post('/api/admin/prices/import', csv)).status(), email).toBe(403);
    expect((await request.post('/api/admin/prices/fx.usdinr/set', { headers: { Origin: baseURL }, data: { date: '2003-03-05', value: 50 } })).status()).toBe(403);
    const banner = await request.post('/api/admin/banners', { headers: { Origin: baseURL }, multipart: { alt: 'x alt', title: 'x', href: '/', image: { name: 'x.png', mimeType: 'image/png', buffer: Buffer.from('89504e470d0a1a0a', 'hex') } } });
    expect(banner.status(), email).toBe(403);
    expect((await request.post('/api/admin/prices/fx.usdinr/delete', { headers: { Origin: baseURL }, data: { date: '2003-03-05', expected: 50 } })).status()).toBe(403);
    await request.dispose();
  }
});

test('the price, import, banner and outbox pages have no serious accessibility violations', { tag: STORELESS }, async ({ page }) => {
  test.slow(); // axe on five pages
  await signInAs(page, 'admin@polyindex.test');
  for (const path of ['/admin', '/admin/prices?series=fx.usdinr', '/admin/prices/import', '/admin/outbox', '/admin/banners']) {
    await page.goto(path);
    expect(await seriousViolationsInMain(page), path).toEqual([]);
  }
});
