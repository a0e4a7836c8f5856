/**
 * Producer list prices in Chromium on the real server (issue 20): the desk enters a producer's new
 * list price in /admin/producer-prices, as a person would; the revision (± ₹/kg against the
 * previous list, computed) appears on /indian-bazaar/rateRevision and in today's lists on
 * /indian-bazaar/companyPrice, on the home ticker, fires the subscriber's revision alert (set on
 * /alerts) once by e-mail and WhatsApp, is in the next daily update, and the WhatsApp bot
 * answers "gail hdpe price" with the new list and its effective date.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { E2E_DATA_DIR, E2E_JOBS_SECRET, baseURL } from './env.ts';
import { ensureAccount, signInAs, signInByApi, uniqueEmail } from './helpers/auth.ts';

const WHATSAPP_OUTBOX = resolve(E2E_DATA_DIR, 'whatsapp-outbox');
const MAIL_OUTBOX = resolve(E2E_DATA_DIR, 'outbox');
const todayInIndia = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const hourInIndia = () => Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
const uniqueNumber = () => `9196${String(Date.now() % 1e6).padStart(6, '0')}${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;
const rupees = (value: number) => value.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

async function whatsappTo(number: string): Promise<{ to: string; text: string; type: string }[]> {
  const names = await readdir(WHATSAPP_OUTBOX).catch(() => [] as string[]);
  const out = [];
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).toSorted()) {
    const message = JSON.parse(await readFile(join(WHATSAPP_OUTBOX, name), 'utf8')) as { to: string; text: string; type: string };
    if (message.to === number) out.push(message);
  }
  return out;
}

/** The text of each mail to `address` whose subject matches. */
async function mailsTo(address: string, subject: RegExp): Promise<string[]> {
  const names = await readdir(MAIL_OUTBOX).catch(() => [] as string[]);
  const texts: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.eml'))) {
    const raw = await readFile(join(MAIL_OUTBOX, name), 'utf8');
    if (!raw.includes(address)) continue;
    const mail = await simpleParser(raw);
    if (subject.test(mail.subject ?? '')) texts.push(mail.text ?? '');
  }
  return texts;
}
const dailyMailsTo = (address: string) => mailsTo(address, /^PolyIndex daily prices/);

async function premiumAccount(admin: APIRequestContext, request: APIRequestContext): Promise<string> {
  const email = uniqueEmail('producer');
  await ensureAccount(request, email);
  await signInByApi(request, email);
  const { user } = (await (await request.get('/api/session')).json()) as { user: { uid: string } };
  expect((await admin.post(`/api/admin/users/${user.uid}/grant`, { data: { plan: 'Premium' }, headers: { Origin: baseURL } })).status()).toBe(200);
  return email;
}

test('the desk enters a new list price; the revision is on rateRevision, the ticker, fires a revision alert once, is in the daily update and answered by the bot', async ({ page, browser, playwright }) => {
  test.setTimeout(180_000);
  const today = todayInIndia();
  const admin = await playwright.request.newContext({ baseURL });
  await signInByApi(admin, 'admin@polyindex.test');
  const subscriber = await playwright.request.newContext({ baseURL });
  const email = await premiumAccount(admin, subscriber);
  const headers = { Origin: baseURL };
  // A verified WhatsApp number for the alert and the bot.
  const number = uniqueNumber();
  expect((await subscriber.post('/api/alerts/whatsapp', { data: { number: `+${number}`, consent: true }, headers })).status()).toBe(202);
  await expect.poll(async () => (await whatsappTo(number)).filter((m) => m.type === 'polyindex_verification_code').length).toBeGreaterThan(0);
  const code = /^(\d{6})/.exec((await whatsappTo(number)).find((m) => m.type === 'polyindex_verification_code')!.text)![1]!;
  expect((await subscriber.post('/api/alerts/whatsapp/verify', { data: { code }, headers })).status()).toBe(200);

  // On /alerts, as a person: an alert on GAIL's HDPE revisions, by e-mail and WhatsApp.
  const own = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await own.addCookies((await subscriber.storageState()).cookies);
  const alertsPage = await own.newPage();
  await alertsPage.goto('/alerts');
  const revisions = alertsPage.getByTestId('revision-alerts');
  await expect(alertsPage.getByTestId('delivery')).toHaveAttribute('data-ready', 'true');
  await revisions.getByLabel('Product').selectOption('HDPE');
  await revisions.getByLabel('Producer').selectOption({ label: 'GAIL' });
  await revisions.getByLabel('Revision alerts on WhatsApp').check();
  await revisions.getByRole('button', { name: 'Add revision alert' }).click();
  await expect(revisions.getByTestId('revision-alert-status')).toHaveText('Revision alert added.');
  await expect(revisions.getByTestId('revision-alert-list')).toContainText('GAIL HDPE list-price revisions (email, whatsapp)');
  await alertsPage.reload();
  await expect(alertsPage.getByTestId('revision-alert-list')).toContainText('GAIL HDPE list-price revisions');
  await own.close();

  // The desk: GAIL's HDPE Film at Pata, the list in force before, then the new one at +1.50.
  const desk = await (await browser.newContext()).newPage();
  await signInAs(desk, 'admin@polyindex.test');
  await desk.goto('/admin/producer-prices?producer=gail');
  const inForce = desk.getByTestId('admin-lists').locator('tr', { hasText: 'HDPE Film, ex-works Pata' });
  const before = Number((await inForce.locator('td').nth(1).innerText()).replace(/,/g, ''));
  expect(before).toBeGreaterThan(0);
  const form = desk.locator('form[data-admin-form]');
  await expect(form).toHaveAttribute('data-ready', 'true');
  await form.getByLabel('Grade').selectOption({ label: 'HDPE Film' });
  await form.getByLabel('Place').selectOption({ label: 'ex-works Pata' });
  await form.getByLabel('Effective from').fill(today);
  // A bad value is refused beside its field, nothing written.
  await form.getByLabel(/List price/).fill('abc');
  await form.getByRole('button', { name: 'Save list price' }).click();
  await expect(form.getByRole('status')).toContainText('The list price must be a plain number');
  await form.getByLabel(/List price/).fill(String(before + 1.5));
  await form.getByRole('button', { name: 'Save list price' }).click();
  await expect(desk.getByRole('status').filter({ hasText: 'List price saved.' })).toBeVisible();
  await expect(desk.getByTestId('admin-lists').locator('tr', { hasText: 'HDPE Film, ex-works Pata' })).toContainText(rupees(before + 1.5));

  // A subscriber sees the revision with its +1.50 on rateRevision, and the new list on companyPrice.
  await signInAs(page, 'premium@polyindex.test');
  await page.goto('/indian-bazaar/rateRevision');
  await page.getByTestId('producer-select').selectOption({ label: 'GAIL' });
  await expect(page).toHaveURL(/producer=gail/);
  const revision = page.locator(`tr[data-revision="gail.hdpeFilm.pata.${today}"]`);
  await expect(revision.getByTestId('change')).toHaveText('+1.50');
  await expect(revision).toContainText(rupees(before + 1.5));
  await expect(page.getByRole('link', { name: 'How revisions are recorded' })).toHaveAttribute('href', '/methodology/producer-prices');
  await page.goto('/indian-bazaar/companyPrice?producer=gail');
  await expect(page.locator('tr[data-line="gail.hdpeFilm.pata"]')).toContainText(rupees(before + 1.5));

  // The home ticker carries it.
  await page.goto('/');
  await expect(page.getByTestId('ticker').locator('[data-ticker-list]')).toContainText('GAIL HDPE Film list');

  // The revision alert goes at once, once per channel, with the ± against the previous list.
  const revisionAlerts = async () => (await whatsappTo(number)).filter((m) => m.type === 'polyindex_price_alert');
  await expect.poll(async () => (await revisionAlerts()).length).toBe(1);
  expect((await revisionAlerts())[0]!.text).toContain('*Price alert*: GAIL revised HDPE list prices from');
  expect((await revisionAlerts())[0]!.text).toContain(`HDPE Film ex-works Pata ₹${rupees(before + 1.5)}/kg ▲1.50`);
  await expect.poll(async () => (await mailsTo(email, /^Producer revision: GAIL revised HDPE from /)).length).toBe(1);

  // The next daily update (the job, as the scheduler runs it) lists it under the producers' revisions: an
  // HDPE price among its prices (the HDPE revisions come with it), due at this hour in India, by e-mail.
  // Saved only now: a job run by another spec at the same time sends every update that is due.
  expect((await subscriber.put('/api/alerts/settings', { data: { series: ['fx.usdinr', 'city.mumbai.hdpeFilm'], email: true, whatsapp: false, hour: hourInIndia() }, headers })).status()).toBe(200);
  expect((await admin.post('/api/jobs/daily-update', { data: {}, headers: { Authorization: `Bearer ${E2E_JOBS_SECRET}` } })).status()).toBe(200);
  await expect.poll(async () => (await dailyMailsTo(email)).length).toBe(1);
  const update = (await dailyMailsTo(email))[0]!;
  expect(update).toMatch(/PRODUCER LIST-PRICE REVISIONS/i);
  expect(update).toContain(`GAIL HDPE Film ex-works Pata: ₹${rupees(before + 1.5)}/kg ▲1.50`);

  // The job's run sent no second alert (the firing is recorded once).
  expect(await revisionAlerts()).toHaveLength(1);
  expect(await mailsTo(email, /^Producer revision/)).toHaveLength(1);

  // The bot answers the list with its effective date.
  await desk.goto(`/admin/whatsapp?number=${number}`);
  const phone = desk.locator('form[data-admin-form]');
  await expect(phone).toHaveAttribute('data-ready', 'true');
  await phone.getByLabel('Message from this phone').fill('gail hdpe price');
  await phone.getByRole('button', { name: 'Send' }).click();
  await expect(desk).toHaveURL(/done=sent/);
  await expect(desk.getByTestId('conversation').locator('li[data-direction="out"]').last()).toContainText(`*GAIL* HDPE Film, ex-works Pata: ₹${rupees(before + 1.5)}/kg from `);
  await desk.context().close();
  await admin.dispose();
  await subscriber.dispose();
});
