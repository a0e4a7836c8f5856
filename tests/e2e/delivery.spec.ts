/**
 * Price delivery in Chromium on the real server (issue 13): a Premium user verifies a WhatsApp
 * number, sets the daily update and an alert on /alerts; the admin enters a crossing price and
 * exactly one alert lands in the WhatsApp outbox and one in the mail outbox; a second price on
 * the same side sends nothing more; the daily job, run twice, sends one update. In the sandbox
 * phone a Premium subscriber asks "pp raffia mumbai" and gets the /api/citywise price, an
 * unlinked number gets the subscribe link, and "stop" ends the WhatsApp daily update.
 * Each test reads only its own users' and numbers' messages (other specs run beside it).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { E2E_DATA_DIR, E2E_JOBS_SECRET, baseURL } from './env.ts';
import { ensureAccount, signIn, signInByApi, uniqueEmail } from './helpers/auth.ts';

const WHATSAPP_OUTBOX = resolve(E2E_DATA_DIR, 'whatsapp-outbox');
const MAIL_OUTBOX = resolve(E2E_DATA_DIR, 'outbox');
const todayInIndia = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const uniqueNumber = () => `9197${String(Date.now() % 1e6).padStart(6, '0')}${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;

interface WhatsAppFile {
  readonly to: string;
  readonly text: string;
  readonly type: string;
}

async function whatsappTo(number: string): Promise<WhatsAppFile[]> {
  const names = await readdir(WHATSAPP_OUTBOX).catch(() => [] as string[]);
  const messages: WhatsAppFile[] = [];
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).toSorted()) {
    const message = JSON.parse(await readFile(join(WHATSAPP_OUTBOX, name), 'utf8')) as WhatsAppFile;
    if (message.to === number) messages.push(message);
  }
  return messages;
}

async function mailsTo(address: string, subject: RegExp): Promise<string[]> {
  const names = await readdir(MAIL_OUTBOX).catch(() => [] as string[]);
  const subjects: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.eml'))) {
    const raw = await readFile(join(MAIL_OUTBOX, name), 'utf8');
    if (!raw.includes(address)) continue;
    const mail = await simpleParser(raw);
    if (mail.subject && subject.test(mail.subject)) subjects.push(mail.subject);
  }
  return subjects;
}

/** A new account with a plan granted by the admin's API; returns its e-mail and uid. */
async function accountWithPlan(admin: APIRequestContext, request: APIRequestContext, prefix: string, plan: string) {
  const email = uniqueEmail(prefix);
  await ensureAccount(request, email);
  await signInByApi(request, email);
  const { user } = (await (await request.get('/api/session')).json()) as { user: { uid: string } };
  expect((await admin.post(`/api/admin/users/${user.uid}/grant`, { data: { plan }, headers: { Origin: baseURL } })).status()).toBe(200);
  return { email, uid: user.uid };
}

const codeFor = async (number: string): Promise<string> => {
  await expect.poll(async () => (await whatsappTo(number)).filter((m) => m.type === 'polyindex_verification_code').length).toBeGreaterThan(0);
  return /^(\d{6})/.exec((await whatsappTo(number)).filter((m) => m.type === 'polyindex_verification_code').at(-1)!.text)![1]!;
};

async function latestOf(request: APIRequestContext, name: string, country: string): Promise<number> {
  const body = (await (await request.get(`/api/feedstock?name=${name}&country=${country}`)).json()) as { data: { value: number[] } };
  return body.data.value.at(-1)!;
}

/** The admin sets today's price of a series through /admin/prices, as a person would. */
async function enterTodaysPrice(page: Page, series: string, value: number): Promise<void> {
  const today = todayInIndia();
  await page.goto(`/admin/prices?series=${series}`);
  await expect(page.locator('form[data-admin-form]').first()).toHaveAttribute('data-ready', 'true');
  const row = page.locator(`tr[data-date="${today}"]`);
  if ((await row.count()) > 0) {
    await row.getByRole('textbox').fill(String(value));
    await row.getByRole('button', { name: 'Save' }).click();
  } else {
    const add = page.locator('form.add');
    await add.getByLabel('Date').fill(today);
    await add.getByLabel(/Value/).fill(String(value));
    await add.getByRole('button', { name: 'Save' }).click();
  }
  await expect(page.getByRole('status').filter({ hasText: 'Price saved.' })).toBeVisible();
}

async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, 'admin@polyindex.test');
  return page;
}

test('a Premium user sets the daily update and an alert; a crossing price sends one alert per channel, once', async ({ page, browser, playwright }) => {
  test.setTimeout(120_000);
  const admin = await playwright.request.newContext({ baseURL });
  await signInByApi(admin, 'admin@polyindex.test');
  const userRequest = await playwright.request.newContext({ baseURL });
  const { email } = await accountWithPlan(admin, userRequest, 'alerts', 'Premium');
  const number = uniqueNumber();

  await signIn(page, email);
  await page.getByTestId('alerts-link').click();
  await expect(page).toHaveURL(/\/alerts$/);
  await expect(page.getByTestId('delivery')).toHaveAttribute('data-ready', 'true');

  // The number, verified by the code WhatsApp carried.
  await page.getByLabel('Your WhatsApp number').fill(`+${number}`);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByTestId('whatsapp-status')).toContainText('Agree to receive');
  await page.getByLabel(/I agree to receive PolyIndex price messages/).check();
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByTestId('whatsapp-status')).toContainText('We sent a 6-digit code');
  await page.getByLabel(/Code sent to/).fill(await codeFor(number));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('whatsapp-number')).toContainText(`+91 ${number.slice(2, 7)} ${number.slice(7)}`);

  // The daily update: two prices, from midnight IST, by e-mail and WhatsApp.
  await page.getByLabel('Prices in the update').selectOption(['feedstock.va.china', 'fx.usdinr']);
  await page.getByLabel('Send it at').selectOption('0');
  await page.getByLabel('By e-mail', { exact: true }).check();
  await page.getByLabel(/On WhatsApp/).check();
  await page.getByRole('button', { name: 'Save daily update' }).click();
  await expect(page.getByTestId('settings-status')).toHaveText('Daily update saved.');

  // Alerts: VA China above its latest price (the one this test moves), Butadiene China as the sentinel.
  const va = await latestOf(userRequest, 'VA', 'china');
  const butadiene = await latestOf(userRequest, 'Butadiene', 'china');
  const addAlert = async (series: string, value: number) => {
    await page.getByRole('combobox', { name: 'Price', exact: true }).selectOption(series);
    await page.getByLabel('When it').selectOption('above');
    await page.getByLabel(/^Value/).fill(String(value));
    await page.getByLabel('Alert me on WhatsApp').check();
    await page.getByRole('button', { name: 'Add alert' }).click();
    await expect(page.getByTestId('alert-status')).toHaveText('Alert added.');
  };
  await addAlert('feedstock.va.china', Math.round(va) + 100);
  await addAlert('feedstock.butadiene.china', Math.round(butadiene) + 50);
  await expect(page.getByTestId('alert-list').locator('li')).toHaveCount(2);

  const adminBrowser = await adminPage(browser);
  await enterTodaysPrice(adminBrowser, 'feedstock.va.china', Math.round(va) + 200);
  const vaAlerts = async () => ({
    whatsapp: (await whatsappTo(number)).filter((m) => m.text.includes('Vinyl acetate · China reaches or passes')).length,
    mail: (await mailsTo(email, /^Price alert: Vinyl acetate/)).length,
  });
  await expect.poll(vaAlerts, { timeout: 20_000 }).toEqual({ whatsapp: 1, mail: 1 });

  // A second price on the same side; then the sentinel crossing, evaluated after it (one queue).
  await enterTodaysPrice(adminBrowser, 'feedstock.va.china', Math.round(va) + 300);
  await enterTodaysPrice(adminBrowser, 'feedstock.butadiene.china', Math.round(butadiene) + 100);
  await expect.poll(async () => (await mailsTo(email, /^Price alert: Butadiene/)).length, { timeout: 20_000 }).toBe(1);
  expect(await vaAlerts()).toEqual({ whatsapp: 1, mail: 1 });

  // The daily job, twice (as Cloud Scheduler might): one update per channel.
  for (let i = 0; i < 2; i++) {
    const run = await admin.post('/api/jobs/daily-update', { data: {}, headers: { Authorization: `Bearer ${E2E_JOBS_SECRET}` } });
    expect(run.status()).toBe(200);
  }
  expect((await admin.post('/api/jobs/daily-update', { data: {}, headers: { Authorization: 'Bearer wrong' } })).status()).toBe(401);
  await expect.poll(async () => (await mailsTo(email, /^PolyIndex daily prices/)).length).toBe(1);
  const daily = (await whatsappTo(number)).filter((m) => m.type === 'polyindex_daily_update' || m.text.startsWith('PolyIndex prices for'));
  expect(daily).toHaveLength(1);
  expect(daily[0]!.text).toContain('Vinyl acetate · China');
  await adminBrowser.context().close();
  await admin.dispose();
  await userRequest.dispose();
});

test('the sandbox phone: Premium asks "pp raffia mumbai" and gets the /api/citywise price; an unlinked number gets the subscribe link; "stop" ends the daily update', async ({ page, playwright }) => {
  test.setTimeout(120_000);
  const admin = await playwright.request.newContext({ baseURL });
  await signInByApi(admin, 'admin@polyindex.test');
  const userRequest = await playwright.request.newContext({ baseURL });
  const { email } = await accountWithPlan(admin, userRequest, 'bot', 'Premium');
  const number = uniqueNumber();
  const headers = { Origin: baseURL };
  expect((await userRequest.post('/api/alerts/whatsapp', { data: { number: `+${number}`, consent: true }, headers })).status()).toBe(202);
  expect((await userRequest.post('/api/alerts/whatsapp/verify', { data: { code: await codeFor(number) }, headers })).status()).toBe(200);
  expect((await userRequest.put('/api/alerts/settings', { data: { series: ['fx.usdinr'], email: true, whatsapp: true, hour: 0 }, headers })).status()).toBe(200);

  const sheet = (await (await admin.get('/api/citywise/mumbai')).json()) as { data: { call: string; price: number; date: string }[] };
  const raffia = sheet.data.find((e) => e.call === 'ppRaffia')!;

  await signIn(page, 'admin@polyindex.test');
  const write = async (from: string, text: string) => {
    await page.goto(`/admin/whatsapp?number=${from}`);
    const form = page.locator('form[data-admin-form]');
    await expect(form).toHaveAttribute('data-ready', 'true');
    await form.getByLabel('Message from this phone').fill(text);
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(page).toHaveURL(/done=sent/);
    return page.getByTestId('conversation').locator('li[data-direction="out"]').last();
  };

  const answer = await write(number, 'pp raffia mumbai');
  await expect(answer).toContainText(`PP Raffia · Mumbai: ${raffia.price.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} Rs/kg on ${raffia.date}`);

  const stranger = uniqueNumber();
  // Links use the build's site (SITE_URL is fixed at build time).
  await expect(await write(stranger, 'naphtha')).toContainText(/not linked to a PolyIndex account\. Subscribe at http:\/\/[^ ]+\/subscription/);

  await expect(await write(number, 'stop')).toContainText('no more PolyIndex updates');
  expect((await admin.post('/api/jobs/daily-update', { data: {}, headers: { Authorization: `Bearer ${E2E_JOBS_SECRET}` } })).status()).toBe(200);
  // The e-mail update went (the job ran for this user); the WhatsApp one did not.
  await expect.poll(async () => (await mailsTo(email, /^PolyIndex daily prices/)).length).toBe(1);
  expect((await whatsappTo(number)).filter((m) => m.type === 'polyindex_daily_update' || m.text.startsWith('PolyIndex prices for'))).toHaveLength(0);
  await admin.dispose();
  await userRequest.dispose();
});

test('/alerts and its API follow the plan; the sandbox phone and the job endpoint are refused to others', async ({ page, playwright }) => {
  const anonymous = await playwright.request.newContext({ baseURL });
  expect((await anonymous.get('/api/alerts/settings')).status()).toBe(401);
  // A JSON body (Astro refuses a cross-site POST without a content type before any endpoint runs).
  expect((await anonymous.post('/api/jobs/daily-update', { data: {} })).status()).toBe(401);
  expect((await anonymous.post('/api/whatsapp/webhook', { data: { object: 'whatsapp_business_account', entry: [] } })).status()).toBe(401);
  await anonymous.dispose();

  const free = await playwright.request.newContext({ baseURL });
  await signInByApi(free, 'free@polyindex.test');
  const put = await free.put('/api/alerts/settings', { data: { series: [], email: true, whatsapp: false, hour: 9 }, headers: { Origin: baseURL } });
  expect(put.status()).toBe(403);
  expect(((await put.json()) as { error: { message: string } }).error.message).toContain('Basic plan');
  await free.dispose();

  await signIn(page, 'basic@polyindex.test');
  await page.goto('/alerts');
  await expect(page.getByTestId('alerts-upgrade')).toContainText('Premium');
  expect((await page.goto('/admin/whatsapp'))?.status()).toBe(404);
});
