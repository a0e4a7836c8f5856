/**
 * Price delivery against the real SQLite store of the test DATA_DIR, the real mail outbox and
 * the real WhatsApp outbox: verification by a code sent over WhatsApp (its limits, STOP, tries
 * counted under concurrency), settings and alerts (plans without the right 403, what a plan's
 * daily update may carry, bad input 400, concurrent writes kept), alerts firing once per
 * crossing after an admin price write (a deletion fires nothing), the daily job once per user
 * and channel, the signed webhook (401 and nothing changes on a wrong signature) with the price
 * bot, STOP, the sandbox phone posting to the server's own address, one-click unsubscribe, the
 * welcome mail, the start-up refusal without a link secret, and the Cloud API adapter against a
 * fake Graph server. (Alert retries and the job endpoint: delivery-job.test.ts.)
 */
import { findSeries } from '../../src/lib/seriesCatalog.ts';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { APIContext, APIRoute } from 'astro';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import UnsubscribePage from '../../src/pages/unsubscribe.astro';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as signInEndpoint } from '../../src/pages/api/auth/session.ts';
import { GET as citywise } from '../../src/pages/api/citywise/index.ts';
import { POST as setPointRoute } from '../../src/pages/api/admin/prices/[series]/set.ts';
import { POST as deletePointRoute } from '../../src/pages/api/admin/prices/[series]/delete.ts';
import { POST as importRoute } from '../../src/pages/api/admin/prices/import.ts';
import { POST as setCityRoute } from '../../src/pages/api/admin/citywise/[city]/set.ts';
import { POST as postAlertRoute } from '../../src/pages/api/alerts/index.ts';
import { DELETE as deleteAlertRoute } from '../../src/pages/api/alerts/[id].ts';
import { GET as getSettingsRoute, PUT as putSettingsRoute } from '../../src/pages/api/alerts/settings.ts';
import { POST as postNumberRoute } from '../../src/pages/api/alerts/whatsapp/index.ts';
import { POST as postCodeRoute } from '../../src/pages/api/alerts/whatsapp/verify.ts';
import { GET as previewRoute } from '../../src/pages/api/alerts/preview.ts';
import { GET as priceRoute } from '../../src/pages/api/alerts/price.ts';
import { POST as jobRoute } from '../../src/pages/api/jobs/daily-update.ts';
import { GET as unsubscribeGetRoute, POST as unsubscribeRoute } from '../../src/pages/api/unsubscribe.ts';
import { GET as verifyWebhookRoute, POST as webhookRoute } from '../../src/pages/api/whatsapp/webhook.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { runDailyUpdate } from '../../src/server/delivery/dailyUpdate.ts';
import { runForecastDigest } from '../../src/server/delivery/forecastDigest.ts';
import { deliveryDeps, webhookAppSecret, webhookVerifyToken, whatsappOutboxDir } from '../../src/server/delivery/index.ts';
import { sandboxSendTo } from '../../src/server/delivery/routes.ts';
import { readUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS, unsubscribeToken } from '../../src/server/delivery/links.ts';
import { endpoint } from '../../src/server/edge/endpoint.ts';
import { priceAlertsSettled } from '../../src/server/delivery/priceWrites.ts';
import { inboundTextPayload, signatureOf } from '../../src/server/delivery/webhook.ts';
import { sendWelcome, welcomeMailsSettled } from '../../src/server/delivery/welcome.ts';
import { createCloudApiSender, createOutboxSender, graphRequestOf, readWhatsAppOutbox, WhatsAppError } from '../../src/server/delivery/whatsapp.ts';
import { whatsappDailyUpdate } from '../../src/lib/delivery/dailyUpdate.ts';
import { findInstrument, instruments } from '../../src/lib/delivery/instruments.ts';
import { deliveryDayOf, istHourOf } from '../../src/lib/delivery/schedule.ts';
import { shortDay } from '../../src/lib/delivery/dateWords.ts';
import { priceText } from '../../src/lib/delivery/quoteLine.ts';
import { isoDateOf, parseSlashedDate } from '../../src/lib/dates.ts';
import { currentLists } from '../../src/lib/producerPrices.ts';
import { dailyUpdateTemplate, priceAlertTemplate, REGISTERED_TEMPLATES } from '../../src/lib/delivery/whatsappTemplates.ts';
import { startFakeGraph, type FakeGraph } from './fakeGraph.ts';
import { listOutbox, readMail, readOutboxMessage } from '../../src/server/mail/outbox.ts';
import { assertSafeToServe, store } from '../../src/server/runtime.ts';
import type { Store } from '../../src/server/store/index.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { emulatorSignIn, emulatorSignUp, sessionOf, uniqueEmail } from './helpers.ts';
import { TEST_DATA_DIR } from './env.ts';

const ORIGIN = 'http://127.0.0.1:4321';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const MAIL_OUTBOX = join(TEST_DATA_DIR, 'outbox');
const SERIES = 'feedstock.va.china';
// Plans that outlast the clock of the tests that move it to 2094 (below).
const inAYear = '2099-12-31T00:00:00.000Z';

/**
 * For the tests that write a run of prices newer than every demo point: a price may not be dated
 * after today (IST), so the clock (Date only; it keeps running) moves to 2094, after their dates.
 */
function in2094(): void {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['Date'], now: new Date('2094-01-01T06:00:00.000Z'), shouldAdvanceTime: true }));
  afterEach(() => void vi.useRealTimers());
}
let db: Store;
let seq = 0;
let admin: UserRecord;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
type Answer = { status: number; json: any; response: Response };

const uniqueNumber = (): string => `9198${String(Date.now() % 1e6).padStart(6, '0')}${String(++seq % 100).padStart(2, '0')}`;

async function createUser(prefix: string, extra: Partial<UserRecord> = {}): Promise<UserRecord> {
  const uid = `${prefix}-${Date.now().toString(36)}-${++seq}`;
  const record: UserRecord = { uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, plan: null, createdAt: '01-01-2026', ...extra };
  await db.createUser(record);
  return record;
}
const premiumUser = (prefix: string) => createUser(prefix, { subscribed: true, plan: 'Premium', expiresAt: inAYear });
const premiumSession = (user: UserRecord): Session => sessionOf(user, 'full');

interface CallOptions {
  method?: string;
  body?: unknown;
  session?: Session | null;
  params?: Record<string, string>;
  origin?: string | null;
  headers?: Record<string, string>;
  raw?: string;
  /** The client's address as the adapter gives it (a new one per call unless given). */
  clientAddress?: string;
  /** The request's own origin (its Host), when not ORIGIN. */
  site?: string;
}

async function call(route: APIRoute, path: string, options: CallOptions = {}): Promise<Answer> {
  const site = options.site ?? ORIGIN;
  const url = new URL(path, site);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  const origin = options.origin === undefined ? site : options.origin;
  if (origin !== null) headers['origin'] = origin;
  const method = options.method ?? 'POST';
  const body = options.raw ?? (options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body));
  const request = new Request(url, { method, headers, ...(body !== undefined && method !== 'GET' ? { body } : {}) });
  const clientAddress = options.clientAddress ?? `10.${seq % 250}.${++seq % 250}.1`;
  const context = { request, url, params: options.params ?? {}, locals: { session: options.session ?? null }, clientAddress } as unknown as APIContext;
  const response = await route(context);
  const text = await response.clone().text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json, response };
}

const whatsappTo = (number: string) => readWhatsAppOutbox(whatsappOutboxDir, number);
async function mailsTo(address: string, subject?: RegExp) {
  return (await listOutbox(MAIL_OUTBOX, 10_000)).filter((m) => m.to?.includes(address) && (!subject || subject.test(m.subject ?? '')));
}

/** Verifies a WhatsApp number for a user through the endpoints, with the code read from the WhatsApp outbox. */
async function verifyNumber(session: Session, number: string): Promise<void> {
  const sent = await call(postNumberRoute, '/api/alerts/whatsapp', { body: { number: `+${number}`, consent: true }, session });
  expect(sent.status, JSON.stringify(sent.json)).toBe(202);
  const message = (await whatsappTo(number)).at(-1)!;
  expect(message.type).toBe('polyindex_verification_code');
  const code = /^(\d{6}) is your PolyIndex verification code/.exec(message.text)![1]!;
  const verified = await call(postCodeRoute, '/api/alerts/whatsapp/verify', { body: { code }, session });
  expect(verified.status, JSON.stringify(verified.json)).toBe(200);
}

async function webhook(from: string, text: string, id = `wamid.test.${Date.now()}.${++seq}`, secret = webhookAppSecret()!): Promise<Answer> {
  const raw = JSON.stringify(inboundTextPayload({ from, name: 'Test', id, text, at: new Date(), phoneNumberId: 'sandbox' }));
  return call(webhookRoute, '/api/whatsapp/webhook', { raw, origin: null, headers: { 'x-hub-signature-256': signatureOf(secret, raw) } });
}
const lastReply = async (number: string) => (await whatsappTo(number)).at(-1)?.text ?? '';
/** This hour in India: an update set for it is due now (its window runs three hours from it). */
const nowHour = () => istHourOf(new Date());
const isDailyUpdate = (m: { type: string; text: string }) => m.type.startsWith('polyindex_daily_update_') || /^\*PolyIndex (prices|भाव) · /.test(m.text);

beforeAll(async () => {
  db = await store();
  admin = await createUser('dl-admin', { role: 'admin' });
});

describe('/api/alerts: what the plan allows, with every bad input refused', () => {
  it('anonymous 401; free users 403 with the reason; Basic may set the daily update but not alerts', async () => {
    const free = await createUser('dl-free');
    const basic = await createUser('dl-basic', { subscribed: true, plan: 'Basic', expiresAt: inAYear });
    const settings = { series: ['fx.usdinr'], email: true, whatsapp: false, hour: 9 };
    const alert = { series: 'fx.usdinr', kind: 'above', value: 95, channels: ['email'] };
    expect((await call(getSettingsRoute, '/api/alerts/settings', { method: 'GET' })).status).toBe(401);
    expect((await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: settings })).status).toBe(401);
    const freePut = await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: settings, session: sessionOf(free, 'none') });
    expect(freePut).toMatchObject({ status: 403, json: { error: { code: 'forbidden', message: expect.stringContaining('Basic plan') } } });
    expect((await call(postNumberRoute, '/api/alerts/whatsapp', { body: { number: '+91 98200 12345', consent: true }, session: sessionOf(free, 'none') })).status).toBe(403);
    const basicSession = sessionOf(basic, 'limited');
    expect((await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: settings, session: basicSession })).status).toBe(200);
    expect(await db.getDeliverySettings(basic.uid)).toMatchObject({ series: ['fx.usdinr'], email: true, hour: 9 });
    expect(await call(postAlertRoute, '/api/alerts', { body: alert, session: basicSession })).toMatchObject({ status: 403, json: { error: { message: expect.stringContaining('Premium') } } });
    const view = await call(getSettingsRoute, '/api/alerts/settings', { method: 'GET', session: basicSession });
    expect(view.json.rights).toEqual({ dailyUpdate: true, alerts: false, priceBot: false });
  });

  it('bad bodies are 400 naming the field, cross-origin writes 403, and nothing is written', async () => {
    const user = await premiumUser('dl-bad');
    const session = premiumSession(user);
    const puts: [unknown, string | undefined][] = [
      ['not json', undefined], [{ series: ['nope'], email: true, whatsapp: false, hour: 9 }, 'series.0'], [{ series: [], email: true, whatsapp: false, hour: 25 }, 'hour'],
      [{ series: [], email: 'y', whatsapp: false, hour: 9 }, 'email'], [{ series: [], email: false, whatsapp: true, hour: 9 }, 'whatsapp'],
      // The weekly forecast digest is true or false, nothing else.
      [{ series: [], email: true, whatsapp: false, hour: 9, forecastDigest: 'yes' }, 'forecastDigest'], [{ series: [], email: true, whatsapp: false, hour: 9, forecastDigest: 1 }, 'forecastDigest'],
      [{ series: [], email: true, whatsapp: false, hour: 9, forecastDigest: null }, 'forecastDigest'],
    ];
    for (const [body, field] of puts) {
      const answer = await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body, session });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error.field).toBe(field);
    }
    const alerts: [unknown, string][] = [
      [{ series: 'fx.usdinr', kind: 'above', value: 5000, channels: ['email'] }, 'value'], [{ series: 'fx.usdinr', kind: 'move', value: 0, channels: ['email'] }, 'value'],
      // The documented move range is 0.1–50 % (probe finding 6: 0.05 was accepted).
      [{ series: 'fx.usdinr', kind: 'move', value: 0.05, channels: ['email'] }, 'value'], [{ series: 'fx.usdinr', kind: 'move', value: 50.5, channels: ['email'] }, 'value'],
      [{ series: 'fx.usdinr', kind: 'up', value: 90, channels: ['email'] }, 'kind'], [{ series: 'fx.usdinr', kind: 'above', value: 90, channels: ['whatsapp'] }, 'channels'],
      [{ series: 'gold', kind: 'above', value: 90, channels: ['email'] }, 'series'],
    ];
    for (const [body, field] of alerts) {
      const answer = await call(postAlertRoute, '/api/alerts', { body, session });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error.field).toBe(field);
    }
    for (const number of ['12', 'abc', '+91 98200\n12345']) expect((await call(postNumberRoute, '/api/alerts/whatsapp', { body: { number, consent: true }, session })).json.error.field).toBe('number');
    expect((await call(postNumberRoute, '/api/alerts/whatsapp', { body: { number: '+91 98200 12345' }, session })).json.error.field).toBe('consent');
    expect((await call(postCodeRoute, '/api/alerts/whatsapp/verify', { body: { code: '123456' }, session })).json.error.field).toBe('code');
    expect((await call(postCodeRoute, '/api/alerts/whatsapp/verify', { body: { code: '12' }, session })).status).toBe(400);
    expect((await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: { series: [], email: true, whatsapp: false, hour: 9 }, session, origin: 'https://evil.example' })).json.error.code).toBe('cross_origin');
    expect((await call(deleteAlertRoute, '/api/alerts/al_x', { method: 'DELETE', session, params: { id: 'al_x' } })).status).toBe(404);
    expect(await db.getDeliverySettings(user.uid)).toBeNull();
    expect(await db.listAlertsByUid(user.uid)).toEqual([]);
  });

  it('a wrong code counts; five wrong codes end the code; a right code verifies and opts the number in', async () => {
    const user = await premiumUser('dl-code');
    const session = premiumSession(user);
    const number = uniqueNumber();
    await call(postNumberRoute, '/api/alerts/whatsapp', { body: { number: `+${number}`, consent: true }, session });
    const code = /^(\d{6})/.exec((await whatsappTo(number)).at(-1)!.text)![1]!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await call(postCodeRoute, '/api/alerts/whatsapp/verify', { body: { code: wrong }, session })).json.error.message).toMatch(/not right/);
    expect((await call(postCodeRoute, '/api/alerts/whatsapp/verify', { body: { code }, session })).json.error.message).toMatch(/no code waiting/);
    expect((await db.getDeliverySettings(user.uid))?.whatsappNumber).toBeNull();
    await verifyNumber(session, number);
    expect(await db.getWhatsAppContact(number)).toMatchObject({ uid: user.uid, optedIn: true, optInAt: expect.any(String) });
  });
});

describe('/alerts: the preview of the next update and the price beside an alert', () => {
  it('the preview is the WhatsApp template the job sends, with the latest prices, for the day it goes out', async () => {
    const user = await premiumUser('dl-preview');
    const session = premiumSession(user);
    const answer = await call(previewRoute, '/api/alerts/preview?series=fx.usdinr,city.mumbai.ppRaffia&hour=9', { method: 'GET', session });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.response.headers.get('cache-control')).toBe('private, no-store');
    const [fx] = await db.latestPoints('fx.usdinr', 1);
    expect(answer.json.hour).toBe(9);
    expect(answer.json.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The template's body as the phone shows it: the day, each group with its prices, one "More" link, the STOP line.
    const lines = (answer.json.message as string).split('\n');
    expect(lines[0]).toMatch(/^\*PolyIndex prices · \w{3} \d{1,2} \w{3} \d{4}\*$/);
    expect(lines).toContain(`*USD/INR* ${priceText({ unit: '₹/US$' }, fx!.value, 'en')}` + lines.find((l) => l.startsWith('*USD/INR* '))!.slice(`*USD/INR* ${priceText({ unit: '₹/US$' }, fx!.value, 'en')}`.length));
    expect(lines.some((l) => /^🇮🇳 \*Indian market\*/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith('*PP Raffia Mumbai* ₹'))).toBe(true);
    expect(lines.at(-2)).toMatch(/^More: http:\/\/\S+$/);
    expect(lines.at(-1)).toBe('Reply STOP to end these updates.');
    // In Hindi when asked: the same prices, the Hindi words.
    const hindi = await call(previewRoute, '/api/alerts/preview?series=fx.usdinr,city.mumbai.ppRaffia&hour=9&language=hi', { method: 'GET', session });
    expect(hindi.status).toBe(200);
    expect(hindi.json.message).toMatch(/^\*PolyIndex भाव · /);
    expect((await call(previewRoute, '/api/alerts/preview?series=fx.usdinr&hour=9&language=fr', { method: 'GET', session })).json.error.field).toBe('language');
    // Nothing chosen: no message. Nothing was saved either way.
    expect((await call(previewRoute, '/api/alerts/preview?series=&hour=9', { method: 'GET', session })).json).toMatchObject({ message: null });
    expect(await db.getDeliverySettings(user.uid)).toBeNull();
  });

  it('the preview and the price follow the plan, and bad queries are 400 naming the field', async () => {
    const user = await premiumUser('dl-preview-bad');
    const session = premiumSession(user);
    const free = sessionOf(await createUser('dl-preview-free'), 'none');
    const basic = sessionOf(await createUser('dl-preview-basic', { subscribed: true, plan: 'Basic', expiresAt: inAYear }), 'limited');
    expect((await call(previewRoute, '/api/alerts/preview?series=fx.usdinr&hour=9', { method: 'GET' })).status).toBe(401);
    expect((await call(priceRoute, '/api/alerts/price?series=fx.usdinr', { method: 'GET' })).status).toBe(401);
    expect(await call(previewRoute, '/api/alerts/preview?series=fx.usdinr&hour=9', { method: 'GET', session: free })).toMatchObject({ status: 403, json: { error: { message: expect.stringContaining('Basic plan') } } });
    // Basic: its own prices only, and no alerts (so no price lookup).
    expect((await call(previewRoute, '/api/alerts/preview?series=fx.usdinr&hour=9', { method: 'GET', session: basic })).status).toBe(200);
    expect(await call(previewRoute, '/api/alerts/preview?series=city.delhi.ppRaffia&hour=9', { method: 'GET', session: basic })).toMatchObject({ status: 400, json: { error: { field: 'series.0' } } });
    expect(await call(priceRoute, '/api/alerts/price?series=fx.usdinr', { method: 'GET', session: basic })).toMatchObject({ status: 403, json: { error: { message: expect.stringContaining('Premium') } } });
    const previews: [string, string][] = [
      ['hour=9', 'series'], ['series=fx.usdinr', 'hour'], ['series=fx.usdinr&hour=24', 'hour'], ['series=fx.usdinr&hour=nine', 'hour'], ['series=fx.usdinr&hour=-1', 'hour'],
      ['series=gold&hour=9', 'series.0'], [`series=${instruments.slice(0, 31).map((i) => i.id).join(',')}&hour=9`, 'series'], [`series=${'a'.repeat(3000)}&hour=9`, 'series'],
    ];
    for (const [query, field] of previews) {
      const answer = await call(previewRoute, `/api/alerts/preview?${query}`, { method: 'GET', session });
      expect(answer.status, query).toBe(400);
      expect(answer.json.error.field, query).toBe(field);
    }
    for (const query of ['', 'series=', 'series=gold', `series=${'x'.repeat(200)}`]) {
      const answer = await call(priceRoute, `/api/alerts/price?${query}`, { method: 'GET', session });
      expect(answer.status, query).toBe(400);
      expect(answer.json.error.field, query).toBe('series');
    }
  });

  it('the price beside an alert is the latest one, with its unit', async () => {
    const session = premiumSession(await premiumUser('dl-price'));
    const answer = await call(priceRoute, `/api/alerts/price?series=${SERIES}`, { method: 'GET', session });
    const [latest] = await db.latestPoints(SERIES, 1);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ series: SERIES, unit: 'RMB/t', latest: { date: latest!.date, value: latest!.value }, text: priceText({ unit: 'RMB/t' }, latest!.value, 'en') });
  });
});

describe('an alert fires once per crossing after an admin price write', () => {
  in2094();
  it('one e-mail and one WhatsApp message per crossing; the same side again sends nothing', async () => {
    const user = await premiumUser('dl-alert');
    const session = premiumSession(user);
    const number = uniqueNumber();
    await verifyNumber(session, number);
    const created = await call(postAlertRoute, '/api/alerts', { body: { series: SERIES, kind: 'above', value: 20_000, channels: ['email', 'whatsapp'] }, session });
    expect(created.status).toBe(201);
    const setPoint = async (date: string, value: number, expected?: number) => {
      const answer = await call(setPointRoute, `/api/admin/prices/${SERIES}/set`, { body: { date, value, expected }, session: sessionOf(admin), params: { series: SERIES } });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      await priceAlertsSettled();
    };
    const alertMails = () => mailsTo(user.email!, /^Price alert/);
    const alertMessages = async () => (await whatsappTo(number)).filter((m) => m.type === 'polyindex_price_alert' || /Price alert/.test(m.text));

    await setPoint('2090-01-01', 21_000);
    expect(await alertMails()).toHaveLength(1);
    expect(await alertMessages()).toHaveLength(1);
    expect((await alertMessages())[0]!.text).toContain('VAM China reaches or passes RMB 20,000/t');
    const raw = (await readOutboxMessage(MAIL_OUTBOX, (await alertMails())[0]!.file))!;
    const headers = await readMail(raw);
    expect(headers.header('list-unsubscribe')).toMatch(/^<http:\/\/127\.0\.0\.1:4321\/api\/unsubscribe\?token=[\w.-]+>$/);
    expect(headers.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(raw).toContain('Content-Type: text/html');

    await setPoint('2090-01-02', 22_000);
    await setPoint('2090-01-02', 22_500, 22_000);
    expect(await alertMails()).toHaveLength(1);
    expect(await alertMessages()).toHaveLength(1);

    await setPoint('2090-01-03', 19_000);
    expect(await alertMails()).toHaveLength(1);
    await setPoint('2090-01-04', 20_500);
    expect(await alertMails()).toHaveLength(2);
    expect(await alertMessages()).toHaveLength(2);

    // The alert mail's one-click link deletes the alert; a deleted alert sends nothing more.
    const link = headers.header('list-unsubscribe')!.slice(1, -1);
    const token = new URL(link).searchParams.get('token')!;
    const unsubscribed = await call(unsubscribeRoute, `/api/unsubscribe?token=${encodeURIComponent(token)}`, { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' }, origin: null });
    expect(unsubscribed).toMatchObject({ status: 200, json: { unsubscribed: 'alert' } });
    expect(await db.listAlertsByUid(user.uid)).toEqual([]);
    expect((await call(unsubscribeRoute, '/api/unsubscribe?token=forged.token', { raw: '', origin: null })).status).toBe(400);
    // Opening the one-click address (a GET) leads to the page that asks first.
    const opened = await call(unsubscribeGetRoute, `/api/unsubscribe?token=${encodeURIComponent(token)}`, { method: 'GET', origin: null });
    expect(opened.status).toBe(303);
    expect(opened.response.headers.get('location')).toBe(`/unsubscribe?token=${encodeURIComponent(token)}`);
  });

  it(`an unsubscribe link older than ${UNSUBSCRIBE_LINK_DAYS} days acts on nothing; its page sends a fresh one to the account's own address`, async () => {
    const user = await premiumUser('dl-expired');
    const session = premiumSession(user);
    expect((await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: { series: ['fx.usdinr'], email: true, whatsapp: false, hour: 9 }, session })).status).toBe(200);
    const { linkSecret } = await deliveryDeps();
    const old = unsubscribeToken(linkSecret, { uid: user.uid, what: 'daily' }, new Date(Date.now() - UNSUBSCRIBE_LINK_DAYS * 86_400_000 - 60_000));
    const oneClick = await call(unsubscribeRoute, `/api/unsubscribe?token=${encodeURIComponent(old)}`, { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' }, origin: null });
    expect(oneClick).toMatchObject({ status: 410, json: { error: { code: 'link_expired', field: 'token' } } });
    expect((await db.getDeliverySettings(user.uid))?.email).toBe(true);

    const container = await AstroContainer.create();
    const page = (method: 'GET' | 'POST', body?: string) =>
      container.renderToString(UnsubscribePage, {
        request: new Request(new URL(`/unsubscribe?token=${encodeURIComponent(old)}`, ORIGIN), { method, ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }) }),
        locals: { session: null },
      });
    const opened = await page('GET');
    expect(opened).toContain('data-testid="link-expired"');
    expect(opened).not.toContain('>Unsubscribe</button>');
    // The visitor cannot choose where it goes: an address in the form is not read.
    const stranger = uniqueEmail('dl-stranger');
    expect(await page('POST', `email=${encodeURIComponent(stranger)}`)).toContain('data-testid="fresh-link-sent"');
    await expect.poll(async () => (await mailsTo(user.email!, /^Your PolyIndex unsubscribe link$/)).length, { timeout: 30_000 }).toBe(1);
    expect(await mailsTo(stranger)).toEqual([]);
    expect((await db.getDeliverySettings(user.uid))?.email).toBe(true);
    // Once an hour per account: a second ask sends nothing more.
    expect(await page('POST', '')).toContain('within the last hour');
    expect(await mailsTo(user.email!, /^Your PolyIndex unsubscribe link$/)).toHaveLength(1);

    // The fresh link works.
    const mail = await simpleParser((await readOutboxMessage(MAIL_OUTBOX, (await mailsTo(user.email!, /^Your PolyIndex unsubscribe link$/))[0]!.file))!);
    const fresh = new URL(/https?:\/\/\S+\/unsubscribe\?token=[\w.%-]+/.exec(mail.text ?? '')![0]).searchParams.get('token')!;
    expect(readUnsubscribeToken(linkSecret, fresh, new Date())).toEqual({ target: { uid: user.uid, what: 'daily' }, expired: false });
    const done = await call(unsubscribeRoute, `/api/unsubscribe?token=${encodeURIComponent(fresh)}`, { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' }, origin: null });
    expect(done).toMatchObject({ status: 200, json: { unsubscribed: 'daily' } });
    expect((await db.getDeliverySettings(user.uid))?.email).toBe(false);
  });

  it('deleting an alert is for its owner only', async () => {
    const owner = premiumUser('dl-owner');
    const user = await owner;
    const created = await call(postAlertRoute, '/api/alerts', { body: { series: 'fx.usdinr', kind: 'below', value: 60, channels: ['email'] }, session: premiumSession(user) });
    const id = created.json.alert.id as string;
    const other = await premiumUser('dl-other');
    expect((await call(deleteAlertRoute, `/api/alerts/${id}`, { method: 'DELETE', session: premiumSession(other), params: { id } })).status).toBe(404);
    expect((await call(deleteAlertRoute, `/api/alerts/${id}`, { method: 'DELETE', session: premiumSession(user), params: { id } })).json).toEqual({ deleted: true });
  });
});

describe('an alert fires once per crossing after a CSV import and after a city-wise write', () => {
  in2094();
  const alertMails = (user: UserRecord) => mailsTo(user.email!, /^Price alert/);
  const alertMessages = async (number: string) => (await whatsappTo(number)).filter((m) => m.type === 'polyindex_price_alert' || /Price alert/.test(m.text));
  /** A Premium user with a verified number and an alert on `series` (created after the first price, so it arms below). */
  async function alertOn(prefix: string, series: string, value: number) {
    const user = await premiumUser(prefix);
    const session = premiumSession(user);
    const number = uniqueNumber();
    await verifyNumber(session, number);
    const created = await call(postAlertRoute, '/api/alerts', { body: { series, kind: 'above', value, channels: ['email', 'whatsapp'] }, session });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    return { user, number };
  }

  it('CSV import: a crossing fires once per channel; a dry run, the same side and a re-import send nothing', async () => {
    const series = 'feedstock.meg.china';
    const importCsv = async (rows: string, query = '') => {
      const answer = await call(importRoute, `/api/admin/prices/import${query}`, { raw: `series,date,value\n${rows}\n`, headers: { 'content-type': 'text/csv' }, session: sessionOf(admin) });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      await priceAlertsSettled();
      return answer.json as { changed: number };
    };
    await importCsv(`${series},2093-01-01,1000`);
    const { user, number } = await alertOn('dl-import', series, 1_500);

    // A dry run writes nothing, so it fires nothing.
    await importCsv(`${series},2093-01-02,1600`, '?dryRun=1');
    expect(await alertMails(user)).toHaveLength(0);
    // The import that crosses (with an earlier point of the same series in the file).
    await importCsv(`${series},2092-12-31,1000\n${series},2093-01-02,1600`);
    expect(await alertMails(user)).toHaveLength(1);
    expect(await alertMessages(number)).toHaveLength(1);
    expect((await alertMessages(number))[0]!.text).toContain('MEG China reaches or passes US$1,500.00/t');
    // Above again, and the very same file again (nothing changes): nothing more.
    await importCsv(`${series},2093-01-03,1700`);
    expect((await importCsv(`${series},2093-01-03,1700`)).changed).toBe(0);
    expect(await alertMails(user)).toHaveLength(1);
    expect(await alertMessages(number)).toHaveLength(1);
    // Down, then up again: the second crossing.
    await importCsv(`${series},2093-01-04,1400`);
    expect(await alertMails(user)).toHaveLength(1);
    await importCsv(`${series},2093-01-05,1650`);
    expect(await alertMails(user)).toHaveLength(2);
    expect(await alertMessages(number)).toHaveLength(2);
  });

  it('city-wise sheet: a crossing fires once per channel; a corrected price on the same side sends nothing', async () => {
    // Kolkata's sheet is no other integration test's: its latest sheet becomes these far dates.
    const setCity = async (date: string, price: number, expected?: number) => {
      const answer = await call(setCityRoute, '/api/admin/citywise/kolkata/set', { body: { date, grade: 'ppRaffia', price, expected }, session: sessionOf(admin), params: { city: 'kolkata' } });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      await priceAlertsSettled();
    };
    await setCity('2093-01-01', 100);
    const { user, number } = await alertOn('dl-city', 'city.kolkata.ppRaffia', 120);

    await setCity('2093-01-08', 125);
    expect(await alertMails(user)).toHaveLength(1);
    expect(await alertMessages(number)).toHaveLength(1);
    const [message] = await alertMessages(number);
    expect(message!.text).toContain('PP Raffia Kolkata reaches or passes ₹120.00/kg');
    expect(message!.text).toContain('/indian-bazaar/citywise?city=kolkata');
    await setCity('2093-01-08', 130, 125);
    expect(await alertMails(user)).toHaveLength(1);
    expect(await alertMessages(number)).toHaveLength(1);
    await setCity('2093-01-15', 110);
    await setCity('2093-01-22', 121);
    expect(await alertMails(user)).toHaveLength(2);
    expect(await alertMessages(number)).toHaveLength(2);
  });
});

describe('the daily update', () => {
  it('runs twice in a day and still sends one message per user and channel; STOP ends the WhatsApp one', async () => {
    const premium = await premiumUser('dl-daily');
    const stopped = await premiumUser('dl-stop');
    const premiumNumber = uniqueNumber();
    const stoppedNumber = uniqueNumber();
    for (const [user, number] of [[premium, premiumNumber], [stopped, stoppedNumber]] as const) {
      await verifyNumber(premiumSession(user), number);
      const put = await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: { series: ['city.mumbai.ppRaffia', 'fx.usdinr'], email: true, whatsapp: true, hour: nowHour() }, session: premiumSession(user) });
      expect(put.status).toBe(200);
    }
    expect((await webhook(stoppedNumber, 'STOP')).status).toBe(200);
    expect(await lastReply(stoppedNumber)).toMatch(/no more PolyIndex updates/);

    const deps = await deliveryDeps();
    await runDailyUpdate(deps);
    await runDailyUpdate(deps);
    expect(await mailsTo(premium.email!, /daily prices/)).toHaveLength(1);
    const daily = (n: string) => whatsappTo(n).then((list) => list.filter(isDailyUpdate));
    expect(await daily(premiumNumber)).toHaveLength(1);
    expect((await daily(premiumNumber))[0]!.text).toContain('*PP Raffia Mumbai* ₹');
    expect(await mailsTo(stopped.email!, /daily prices/)).toHaveLength(1);
    expect(await daily(stoppedNumber)).toHaveLength(0);
    expect((await db.listDeliveries(premium.uid)).filter((d) => d.kind === 'daily').map((d) => [d.channel, d.status]).toSorted()).toEqual([['email', 'sent'], ['whatsapp', 'sent']]);
  });
});

describe('the weekly forecast digest', () => {
  // Monday 30 Nov 2026, in India: the digest of an hour-9 subscriber is due from 09:00 to 12:00 IST.
  const at = (iso: string) => new Date(iso);
  const digestMails = (user: UserRecord) => mailsTo(user.email!, /weekly forecasts/);
  const isDigest = (m: { type: string; text: string }) => m.type.startsWith('polyindex_forecast_digest_') || /^\*PolyIndex (forecasts|अनुमान) · /.test(m.text);

  it('goes once per user and channel on Monday inside the window, never outside it; open calls only for plans with the outlook pages', { timeout: 300_000 }, async () => {
    const premium = await premiumUser('dl-digest');
    const basic = await createUser('dl-digest-basic', { subscribed: true, plan: 'Basic', expiresAt: inAYear });
    const off = await premiumUser('dl-digest-off');
    const number = uniqueNumber();
    await verifyNumber(premiumSession(premium), number);
    const settings = { series: ['city.mumbai.ppRaffia', 'fx.usdinr'], email: true, whatsapp: false, hour: 9 };
    for (const [user, body] of [
      [premium, { ...settings, whatsapp: true, forecastDigest: true }],
      [basic, { ...settings, series: ['city.mumbai.ppRaffia'], forecastDigest: true }],
      [off, { ...settings, forecastDigest: false }],
    ] as const) {
      const put = await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body, session: sessionOf(user, user.plan === 'Basic' ? 'limited' : 'full') });
      expect(put.status, JSON.stringify(put.json)).toBe(200);
      expect(put.json.settings.forecastDigest).toBe(body.forecastDigest);
    }
    // A save without the field keeps the digest as saved.
    expect((await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: { ...settings, whatsapp: true }, session: premiumSession(premium) })).json.settings.forecastDigest).toBe(true);

    const base = await deliveryDeps();
    const runAt = (iso: string) => runForecastDigest({ ...base, now: () => at(iso) });
    // Outside: Sunday at the hour, Monday before the hour, Monday after the window, Tuesday.
    for (const iso of ['2026-11-29T04:00:00Z', '2026-11-30T03:00:00Z', '2026-11-30T06:30:00Z', '2026-12-01T04:00:00Z']) {
      expect((await runAt(iso)).due, iso).toBe(0);
    }
    expect(await digestMails(premium)).toHaveLength(0);
    // Inside (Monday 09:30 IST), twice, and again at 11:30: one message per user and channel.
    const first = await runAt('2026-11-30T04:00:00Z');
    expect(first).toMatchObject({ due: 2, failed: 0 });
    expect(first.sent).toBe(3);
    expect((await runAt('2026-11-30T04:00:00Z')).sent).toBe(0);
    expect(await runAt('2026-11-30T06:00:00Z')).toMatchObject({ due: 2, sent: 0, skipped: 3 });

    const [premiumMail] = await digestMails(premium);
    expect(await digestMails(premium)).toHaveLength(1);
    const premiumText = (await simpleParser((await readOutboxMessage(MAIL_OUTBOX, premiumMail!.file))!)).text ?? '';
    expect(premiumMail!.subject).toBe('PolyIndex weekly forecasts · Mon 30 Nov 2026');
    // Premium opens the outlook pages: the desk's open calls beside the baseline, in prices.
    expect(premiumText).toMatch(/PP RAFFIA · MUMBAI EX-WORKS \(INCL\. GST\) · ₹\/KG/);
    expect(premiumText).toMatch(/\n1 week, to \d{1,2} \w{3}( \d{4})?: desk [▲▼▶] (Up|Flat|Down) [\d,.]+–[\d,.]+; baseline /);
    expect(premiumText).toMatch(/\n12 months, \d+ calls \(in range · direction right\): desk \d+% · \d+%; baseline \d+% · \d+%/);
    expect(premiumText).toContain('http://127.0.0.1:4321/indian-bazaar/pricePrediction');
    const whatsapp = (await whatsappTo(number)).filter(isDigest);
    expect(whatsapp).toHaveLength(1);
    expect(whatsapp[0]!.type).toMatch(/^polyindex_forecast_digest_\d+$/);
    expect(whatsapp[0]!.text).toMatch(/^\*PolyIndex forecasts · Mon 30 Nov 2026\*\n\n📈 \*PP Raffia · Mumbai/);

    // Basic has no outlook pages: the record and the scored calls as changes, no open call, no price.
    const basicMails = await digestMails(basic);
    expect(basicMails).toHaveLength(1);
    const basicText = (await simpleParser((await readOutboxMessage(MAIL_OUTBOX, basicMails[0]!.file))!)).text ?? '';
    expect(basicText).toContain("The desk's open calls and the baseline's range come with Premium and Platinum.");
    expect(basicText).not.toMatch(/\n1 week, to /);
    expect(basicText).not.toMatch(/[\d,.]+–[\d,.]+/);
    expect(basicText).toMatch(/Scored: \d+ (week|month|months), to .+ · came [+−]?\d+\.\d%/);
    expect(await digestMails(off)).toHaveLength(0);
    expect((await db.listDeliveries(premium.uid)).filter((d) => d.kind === 'digest').map((d) => [d.ref, d.channel, d.status]).toSorted()).toEqual([
      ['2026-11-30', 'email', 'sent'],
      ['2026-11-30', 'whatsapp', 'sent'],
    ]);

    // Its own unsubscribe link stops the digest (every channel), not the daily update.
    const token = decodeURIComponent(/unsubscribe\?token=([\w.%-]+)/.exec(premiumText)![1]!);
    const unsubscribed = await call(unsubscribeRoute, `/api/unsubscribe?token=${encodeURIComponent(token)}`, { raw: 'List-Unsubscribe=One-Click', origin: null, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(unsubscribed).toMatchObject({ status: 200, json: { unsubscribed: 'digest' } });
    expect(await db.getDeliverySettings(premium.uid)).toMatchObject({ forecastDigest: false, email: true, whatsapp: true });
  });
});

describe('the WhatsApp webhook and the price bot', () => {
  it('GET answers the challenge only for the verify token', async () => {
    const token = webhookVerifyToken()!;
    const ok = await call(verifyWebhookRoute, `/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=8765`, { method: 'GET', origin: null });
    expect(ok).toMatchObject({ status: 200, json: 8765 });
    expect((await call(verifyWebhookRoute, '/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=8765', { method: 'GET', origin: null })).status).toBe(403);
  });

  it('a wrong, missing or stale signature is 401 and changes nothing; a bad payload with a good signature is 400', async () => {
    const number = uniqueNumber();
    const before = (await whatsappTo(number)).length;
    expect((await webhook(number, 'naphtha', undefined, 'not-the-secret')).status).toBe(401);
    const raw = JSON.stringify(inboundTextPayload({ from: number, name: 'x', id: 'wamid.nosig', text: 'stop', at: new Date(), phoneNumberId: 'sandbox' }));
    expect((await call(webhookRoute, '/api/whatsapp/webhook', { raw, origin: null })).status).toBe(401);
    expect((await call(webhookRoute, '/api/whatsapp/webhook', { raw: `${raw} `, origin: null, headers: { 'x-hub-signature-256': signatureOf(webhookAppSecret()!, raw) } })).status).toBe(401);
    expect(await db.getWhatsAppContact(number)).toBeNull();
    expect((await whatsappTo(number)).length).toBe(before);
    for (const bad of ['{', '{"object":"page","entry":[]}', JSON.stringify({ object: 'whatsapp_business_account', entry: [{ changes: [{ field: 'messages', value: { messages: [{ from: 'x', id: '1', type: 'text' }] } }] }] })]) {
      expect((await call(webhookRoute, '/api/whatsapp/webhook', { raw: bad, origin: null, headers: { 'x-hub-signature-256': signatureOf(webhookAppSecret()!, bad) } })).status, bad).toBe(400);
    }
  });

  it('Premium gets the price /api/citywise shows; a lower plan and an unknown number get the subscribe link; a repeated message is answered once', async () => {
    const premium = await premiumUser('dl-bot');
    const number = uniqueNumber();
    await verifyNumber(premiumSession(premium), number);
    const sheet = await call(citywise, '/api/citywise', { method: 'GET', session: premiumSession(premium) });
    const entry = (sheet.json.data as { call: string; entries: { call: string; price: number; date: string }[] }[]).find((c) => c.call === 'mumbai')!.entries.find((e) => e.call === 'ppRaffia')!;
    const id = `wamid.bot.${Date.now()}`;
    expect((await webhook(number, 'pp raffia mumbai', id)).json.handled).toEqual(['replied']);
    const reply = await lastReply(number);
    expect(reply).toMatch(new RegExp(`^\\*PP Raffia Mumbai\\* ${escapeRegExp(priceText({ unit: '₹/kg' }, entry.price, 'en'))}( [▲▼▬][^·]*)? · ${shortDay(parseSlashedDate(entry.date)!, 'en', deliveryDayOf(new Date()))}\\n`));
    expect(reply).toContain('/indian-bazaar/citywise?city=mumbai');
    const count = (await whatsappTo(number)).length;
    expect((await webhook(number, 'pp raffia mumbai', id)).json.handled).toEqual(['duplicate']);
    expect((await whatsappTo(number)).length).toBe(count);
    // Inside the 24-hour window an alert or update goes as free text (the number just wrote).
    expect((await db.getWhatsAppContact(number))?.lastInboundAt).not.toBeNull();

    const basic = await createUser('dl-bot-basic', { subscribed: true, plan: 'Basic', expiresAt: inAYear });
    const basicNumber = uniqueNumber();
    await verifyNumber(sessionOf(basic, 'limited'), basicNumber);
    await webhook(basicNumber, 'naphtha');
    expect(await lastReply(basicNumber)).toMatch(/the Premium plan and up\. Compare plans at http:\/\/127\.0\.0\.1:4321\/pricing/);

    const stranger = uniqueNumber();
    await webhook(stranger, 'brent');
    expect(await lastReply(stranger)).toMatch(/not linked to a PolyIndex account\. Subscribe at http:\/\/127\.0\.0\.1:4321\/pricing/);
    await webhook(stranger, 'help');
    expect(await lastReply(stranger)).toMatch(/pp raffia mumbai/);
  });

  it('a lapsed Premium subscriber (plan expired) with a verified number gets the subscribe link, not prices', async () => {
    const lapsed = await premiumUser('dl-bot-lapsed');
    const number = uniqueNumber();
    await verifyNumber(premiumSession(lapsed), number);
    expect((await webhook(number, 'naphtha japan')).json.handled).toEqual(['replied']);
    expect(await lastReply(number)).toMatch(/^\*Naphtha Japan\* US\$[\d,.]+\/t/);
    // The plan ends; the number stays verified and linked.
    expect(await db.updateUsersBy('uid', lapsed.uid, { expiresAt: new Date(Date.now() - 60_000).toISOString() })).toBe(1);
    expect(await db.getWhatsAppContact(number)).toMatchObject({ uid: lapsed.uid, optedIn: true });
    for (const question of ['naphtha', 'pp raffia mumbai']) {
      expect((await webhook(number, question)).json.handled).toEqual(['replied']);
      const reply = await lastReply(number);
      expect(reply).toMatch(/the Premium plan and up\. Compare plans at http:\/\/127\.0\.0\.1:4321\/pricing/);
      expect(reply).not.toMatch(/[₹$][\d,.]+\//);
    }
  });

  it('price questions are rate-limited per number: the first one over the limit is told when to ask again, the rest get nothing', async () => {
    const number = uniqueNumber();
    const outcomes: string[] = [];
    for (let i = 0; i < 13; i++) outcomes.push(...((await webhook(number, 'brent')).json.handled as string[]));
    expect(outcomes.filter((o) => o === 'replied')).toHaveLength(10);
    expect(outcomes.slice(10)).toEqual(['rate_limited', 'rate_limited', 'rate_limited']);
    const replies = await whatsappTo(number);
    expect(replies).toHaveLength(11);
    expect(replies.at(-1)!.text).toMatch(/^You have asked for many prices in a short time\. Ask again after \d\d:\d\d IST\.$/);
    // STOP still works.
    expect((await webhook(number, 'stop')).json.handled).toEqual(['replied']);
  });

  it('Hinglish and Hindi, a family in one reply, a day, a producer, suggestions; answers in the subscriber\'s language', async () => {
    const user = await premiumUser('dl-bot-words');
    const number = uniqueNumber();
    await verifyNumber(premiumSession(user), number);
    const ask = async (text: string) => {
      expect((await webhook(number, text)).json.handled).toEqual(['replied']);
      return lastReply(number);
    };
    expect(await ask('pp raffia ka daam kya hai')).toMatch(/^\*PP Raffia Mumbai\* ₹[\d,.]+\/kg/);
    // "hdpe": every grade of the Mumbai sheet, in one reply.
    const hdpe = await ask('hdpe');
    expect(hdpe.split('\n').filter((line) => line.startsWith('*HDPE '))).toEqual([expect.stringMatching(/^\*HDPE Raffia Mumbai\*/), expect.stringMatching(/^\*HDPE Injection Mumbai\*/), expect.stringMatching(/^\*HDPE Blow moulding Mumbai\*/), expect.stringMatching(/^\*HDPE Film Mumbai\*/)]);
    // Before a language is chosen, a question in Devanagari is answered in Hindi.
    expect(await ask('पीपी रैफिया दिल्ली')).toMatch(/^\*PP रैफ़िया दिल्ली\* ₹[\d,.]+\/किलो/);
    expect(await ask('pp raffia kal ka bhav')).toMatch(/^As of \d{1,2} \w{3}( \d{4})?:\n\*PP Raffia Mumbai\* (₹|no price)/);
    expect(await ask('naphtha japan last week')).toMatch(/^Now, and the change since last week \(\d{1,2} \w{3}( \d{4})?\):\n\*Naphtha Japan\* US\$/);
    // A producer PolyIndex lists: its lists in force today, from the store (the demo's lists); one it does not list: the market price.
    const today = isoDateOf(new Date());
    const [raffia] = currentLists(await db.listProducerPrices('reliance'), today);
    const ril = await ask('ril pp price');
    const since = escapeRegExp(shortDay(raffia!.record.effective, 'en', today));
    const value = escapeRegExp(raffia!.record.value.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
    expect(ril).toMatch(new RegExp(`^\\*Reliance \\(RIL\\)\\* PP Raffia, ex-works Jamnagar: ₹${value}/kg from ${since}( \\([+−]₹[\\d.]+/kg\\))?$`, 'm'));
    expect(ril.split('\n').slice(0, -2).every((line) => /^\*Reliance \(RIL\)\* PP /.test(line))).toBe(true);
    // A depot reads "ex-depot Mumbai", never "ex-depot Mumbai depot".
    expect(ril).toMatch(/^\*Reliance \(RIL\)\* PP Raffia, ex-depot Mumbai: ₹[\d,.]+\/kg from /m);
    expect(ril).not.toMatch(/depot \S+ depot/);
    expect(ril).toMatch(/\nProducer list prices, GST extra\.\nhttp:\/\/127\.0\.0\.1:4321\/indian-bazaar\/companyPrice$/);
    expect(await ask('nayara pp raffia')).toMatch(/^Nayara Energy list prices are not on PolyIndex yet\. The market price:\n\*PP Raffia Mumbai\* ₹/);
    expect(await ask('ldpe film')).toMatch(/^I did not find that price\. Did you mean:\n• LDPE General Mumbai\n• LDPE Lamination Mumbai\n• LDPE General \w+$/);
    // The subscriber chooses Hindi: answers come in Hindi, whatever the question's script.
    await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: { series: ['fx.usdinr'], email: false, whatsapp: false, hour: 9, language: 'hi' }, session: premiumSession(user) });
    expect(await ask('pp raffia mumbai')).toMatch(/^\*PP रैफ़िया मुंबई\* ₹[\d,.]+\/किलो/);
    expect(await ask('aaj ka bhav')).toMatch(/^आपके दैनिक अपडेट के भाव:\n\*डॉलर\/रुपया\* ₹/);
    // A stranger who writes in Hindi is answered in Hindi.
    const stranger = uniqueNumber();
    await webhook(stranger, 'पीपी का भाव');
    expect(await lastReply(stranger)).toMatch(/^यह नंबर किसी PolyIndex खाते से जुड़ा नहीं है।/);
  });

  it('"pp forecast": the desk\'s open calls of each horizon and its record against the baseline, with the outlook page; in Hindi too', { timeout: 300_000 }, async () => {
    const user = await premiumUser('dl-bot-forecast');
    const number = uniqueNumber();
    await verifyNumber(premiumSession(user), number);
    const ask = async (text: string) => {
      expect((await webhook(number, text)).json.handled).toEqual(['replied']);
      return lastReply(number);
    };
    // The demo desk seeded on the store's first open: its calls are the ones the pages show.
    // "pp" is the Mumbai sheet's PP (the city-wise default): the Mumbai ex-works series.
    const mumbai = findSeries('historical.ppRaffia.mumbai')!;
    const reply = await ask('pp forecast');
    const lines = reply.split('\n');
    expect(lines[0]).toBe(`*${mumbai.label}*: the desk's forecast (${mumbai.unit})`);
    expect(lines[1]).toMatch(/^1 week \(to \d{1,2} \w{3}( \d{4})?\): [▲▼▶] (Up|Flat|Down) [\d,.]+–[\d,.]+$/);
    expect(reply).toMatch(/\nLast 12 months \(\d+ calls\): inside the range \d+%, direction right \d+% \(statistical baseline: \d+%, \d+%\)\.\n/);
    expect(lines.at(-1)).toBe('http://127.0.0.1:4321/indian-bazaar/pricePrediction');
    // A CIF series: the product's outlook page.
    const cif = (await ask('pp cif forecast')).split('\n');
    expect(cif[0]).toBe(`*${findSeries('historical.ppRaffia.cif-ns')!.label}*: the desk's forecast (${findSeries('historical.ppRaffia.cif-ns')!.unit})`);
    expect(cif.at(-1)).toBe('http://127.0.0.1:4321/future-trend/PP');
    expect(await ask('hdpe ka anuman')).toMatch(new RegExp(`^\\*${escapeRegExp(findSeries('historical.hdpeFilm.mumbai')!.label)}\\*: the desk's forecast`));
    expect(await ask('usd inr forecast')).toMatch(/^The desk does not forecast \*/);
    expect(await ask('forecast')).toMatch(/^Ask for a price by name/);
    expect(await ask('पीपी अनुमान')).toMatch(new RegExp(`^\\*${escapeRegExp(mumbai.label)}\\*: डेस्क का अनुमान \\(.+\\)\\n1 हफ्ता \\(`));
  });
});

describe('the job endpoint', () => {
  it('is 404 without JOBS_SECRET', async () => {
    expect((await call(jobRoute, '/api/jobs/daily-update', { origin: null })).status).toBe(404);
  });
});

describe('the welcome e-mail', () => {
  it('goes once, when the account is created on first sign-in', async () => {
    const email = uniqueEmail('welcome');
    const { idToken } = await emulatorSignUp(email);
    const signIn = async (token: string) => {
      const request = new Request(`${ORIGIN}/api/auth/session`, { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/json' }, body: JSON.stringify({ idToken: token }) });
      const cookies = { set: () => undefined, get: () => undefined, delete: () => undefined };
      const response = await signInEndpoint({ request, url: new URL(request.url), cookies } as unknown as APIContext);
      expect(response.status).toBe(200);
    };
    await signIn(idToken);
    await signIn(await emulatorSignIn(email));
    // Every welcome mail started by those sign-ins has been written (or failed) now.
    await welcomeMailsSettled();
    expect(await mailsTo(email, /^Welcome/)).toHaveLength(1);
  });

  it('names nobody: a display name typed at sign-up never reaches the unconfirmed address', async () => {
    const email = uniqueEmail('welcome-name');
    const lure = 'Your account is locked, confirm at http://phish.example/login';
    sendWelcome({ uid: `welcome-${++seq}`, displayName: lure, email, phone: null, photoURL: null, role: 'user', subscribed: false, plan: null, createdAt: '24-11-2026' });
    await expect.poll(async () => (await mailsTo(email, /^Welcome to PolyIndex$/)).length, { timeout: 60_000 }).toBe(1);
    const raw = (await readOutboxMessage(MAIL_OUTBOX, (await mailsTo(email))[0]!.file))!;
    const mail = await simpleParser(raw);
    expect(mail.text).toContain('Your PolyIndex account is ready');
    for (const part of [raw, mail.text ?? '', String(mail.html)]) {
      expect(part).not.toContain('phish.example');
      expect(part).not.toContain('locked');
    }
  });
});

describe('verification codes: limits that hold, tries counted before the compare', () => {
  const askCode = (session: Session, number: string, clientAddress?: string) =>
    call(postNumberRoute, '/api/alerts/whatsapp', { body: { number: `+${number}`, consent: true }, session, ...(clientAddress ? { clientAddress } : {}) });
  const codeOf = async (number: string) => /^(\d{6})/.exec((await whatsappTo(number)).filter((m) => m.type === 'polyindex_verification_code').at(-1)!.text)![1]!;

  it('concurrent wrong codes: exactly five are counted, then the code is spent (the right one too); the number stays unverified', async () => {
    const user = await premiumUser('dl-race');
    const session = premiumSession(user);
    const number = uniqueNumber();
    expect((await askCode(session, number)).status).toBe(202);
    const code = await codeOf(number);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 12 }, () => call(postCodeRoute, '/api/alerts/whatsapp/verify', { body: { code: wrong }, session })));
    const messages = answers.map((a) => a.json.error.message as string);
    expect(messages.filter((m) => /not right/.test(m))).toHaveLength(5);
    expect(messages.filter((m) => /no code waiting/.test(m))).toHaveLength(7);
    expect((await call(postCodeRoute, '/api/alerts/whatsapp/verify', { body: { code }, session })).json.error.message).toMatch(/no code waiting/);
    expect((await db.getDeliverySettings(user.uid))?.whatsappNumber).toBeNull();
    expect(await db.getWhatsAppContact(number)).toMatchObject({ uid: null, optedIn: false });
  });

  it("codes to one number are limited per account (3 in 10 minutes), with Retry-After; a stranger's requests never lock its owner out", async () => {
    const number = uniqueNumber();
    const stranger = premiumSession(await premiumUser('dl-flood'));
    for (let i = 0; i < 3; i++) expect((await askCode(stranger, number)).status).toBe(202);
    const fourth = await askCode(stranger, number);
    expect(fourth).toMatchObject({ status: 429, json: { error: { code: 'rate_limited', field: 'number' } } });
    expect(Number(fourth.response.headers.get('retry-after'))).toBeGreaterThan(0);
    // The number's owner, from their own account, still gets a code (before: 429 for 10 minutes, and for the day after five).
    const owner = await premiumUser('dl-owner-of-number');
    expect((await askCode(premiumSession(owner), number)).status).toBe(202);
    expect((await whatsappTo(number)).filter((m) => m.type === 'polyindex_verification_code')).toHaveLength(4);
    expect(await db.getWhatsAppContact(number)).toMatchObject({ codeSentBy: [stranger.uid, stranger.uid, stranger.uid, owner.uid] });
  });

  it('never to a number that sent STOP, until it sends START', async () => {
    const number = uniqueNumber();
    expect((await webhook(number, 'STOP')).status).toBe(200);
    const session = premiumSession(await premiumUser('dl-stopped'));
    const refused = await askCode(session, number);
    expect(refused).toMatchObject({ status: 409, json: { error: { code: 'whatsapp_stopped', field: 'number' } } });
    expect((await whatsappTo(number)).filter((m) => m.type === 'polyindex_verification_code')).toHaveLength(0);
    await webhook(number, 'START');
    expect((await askCode(session, number)).status).toBe(202);
  });

  it('codes from one client address are limited (20 in 10 minutes), across users and numbers', async () => {
    const address = `192.0.2.${(++seq % 200) + 1}`;
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await askCode(premiumSession(await premiumUser(`dl-addr-${i}`)), uniqueNumber(), address)).status);
    expect(statuses.slice(0, 20).every((status) => status === 202)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Another address is not held back.
    expect((await askCode(premiumSession(await premiumUser('dl-addr-other')), uniqueNumber())).status).toBe(202);
  });

  it('writes at the same moment lose nothing: a settings save beside a code request, a wrong code and an unsubscribe', async () => {
    for (let round = 0; round < 4; round++) {
      const user = await premiumUser(`dl-lost-${round}`);
      const session = premiumSession(user);
      const number = uniqueNumber();
      const settings = { series: ['fx.usdinr'], email: true, whatsapp: false, hour: 5 + round };
      const [put, asked] = await Promise.all([call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: settings, session }), askCode(session, number)]);
      expect([put.status, asked.status]).toEqual([200, 202]);
      expect(await db.getDeliverySettings(user.uid)).toMatchObject({ series: ['fx.usdinr'], email: true, hour: 5 + round, pending: { number, attempts: 0 } });
      const [again, tried] = await Promise.all([
        call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: { ...settings, hour: 20 }, session }),
        call(postCodeRoute, '/api/alerts/whatsapp/verify', { body: { code: (await codeOf(number)) === '000000' ? '111111' : '000000' }, session }),
      ]);
      expect([again.status, tried.status]).toEqual([200, 400]);
      expect(await db.getDeliverySettings(user.uid)).toMatchObject({ hour: 20, pending: { number, attempts: 1 } });
    }
  });
});

describe("what a plan's daily update carries", () => {
  const basicUser = (prefix: string) => createUser(prefix, { subscribed: true, plan: 'Basic', expiresAt: inAYear });

  it('Basic saves only prices its plan carries (400 naming the first other one); /alerts shows what the update carries', async () => {
    const basic = await basicUser('dl-plan');
    const session = sessionOf(basic, 'limited');
    const refused = await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: { series: ['city.mumbai.ppRaffia', 'feedstock.va.china'], email: true, whatsapp: false, hour: 9 }, session });
    expect(refused).toMatchObject({ status: 400, json: { error: { code: 'invalid_input', field: 'series.1', message: expect.stringContaining('Vinyl acetate · China is not in the Basic plan') } } });
    expect(refused.json.error.message).toContain('Premium');
    expect(await db.getDeliverySettings(basic.uid)).toBeNull();
    const saved = await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: { series: ['city.mumbai.ppRaffia', 'city.mumbai.pvcInjection', 'fx.usdinr'], email: true, whatsapp: false, hour: nowHour() }, session });
    expect(saved.status).toBe(200);
    expect(saved.json.settings.series).toEqual(['city.mumbai.ppRaffia', 'city.mumbai.pvcInjection', 'fx.usdinr']);
  });

  it('the job carries what the plan allows on the day it runs: off-plan prices saved under another plan are left out, the defaults when none is left', async () => {
    const kept = await basicUser('dl-plan-kept');
    const fallen = await basicUser('dl-plan-fallen');
    const now = new Date();
    const record = (uid: string, series: string[]) => ({ uid, series, email: true, whatsapp: false, hour: nowHour(), whatsappNumber: null, whatsappVerifiedAt: null, pending: null, updatedAt: now.toISOString() });
    // As saved while on Premium (or before plans had daily choices).
    await db.saveDeliverySettings(record(kept.uid, ['feedstock.va.china', 'city.mumbai.ppRaffia', 'historical.ppRaffia.cif-ns']));
    await db.saveDeliverySettings(record(fallen.uid, ['feedstock.va.china', 'city.delhi.ppRaffia']));
    expect((await call(getSettingsRoute, '/api/alerts/settings', { method: 'GET', session: sessionOf(kept, 'limited') })).json.settings.series).toEqual(['city.mumbai.ppRaffia']);
    await runDailyUpdate(await deliveryDeps());
    const bodyOf = async (email: string) => {
      const [mail] = await mailsTo(email, /daily prices/);
      return (await simpleParser((await readOutboxMessage(MAIL_OUTBOX, mail!.file))!)).text ?? '';
    };
    const keptMail = await bodyOf(kept.email!);
    expect(keptMail).toContain('PP Raffia Mumbai: ₹');
    expect(keptMail).not.toContain('VAM');
    expect(keptMail).not.toContain('CIF');
    const fallenMail = await bodyOf(fallen.email!);
    expect(fallenMail).not.toContain('VAM');
    expect(fallenMail).not.toContain('Delhi');
    for (const label of ['Brent crude: US$', 'HDPE Film Mumbai: ₹', 'USD/INR: ₹']) expect(fallenMail).toContain(label);
  });
});

describe('the daily update: grouped prices, one link per group by e-mail, one More link on WhatsApp, in the chosen language', () => {
  const SITE = 'http://127.0.0.1:4321';
  const bodyOf = async (email: string, subject = /daily prices|दैनिक भाव/) => {
    const [mail] = await mailsTo(email, subject);
    const parsed = await simpleParser((await readOutboxMessage(MAIL_OUTBOX, mail!.file))!);
    return { subject: parsed.subject ?? '', text: parsed.text ?? '', html: String(parsed.html) };
  };
  const dailyTo = async (number: string) => (await whatsappTo(number)).filter(isDailyUpdate);

  it('Premium: free text inside the service window, a template outside it; the e-mail links each group to its screen', async () => {
    const chatting = await premiumUser('dl-links');
    const quiet = await premiumUser('dl-links-template');
    const chattingNumber = uniqueNumber();
    const quietNumber = uniqueNumber();
    for (const [user, number] of [[chatting, chattingNumber], [quiet, quietNumber]] as const) {
      await verifyNumber(premiumSession(user), number);
      const put = await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: { series: ['city.mumbai.ppRaffia', 'feedstock.naphtha.japan', 'fx.usdinr'], email: true, whatsapp: true, hour: nowHour() }, session: premiumSession(user) });
      expect(put.status).toBe(200);
    }
    // One number wrote in the last 24 hours: it gets free text; the other a template.
    await webhook(chattingNumber, 'help');
    await runDailyUpdate(await deliveryDeps());

    const more = `More: ${SITE}/indian-bazaar/citywise?city=mumbai`;
    const [text] = await dailyTo(chattingNumber);
    expect(text!.type).toBe('text');
    expect(text!.text).toMatch(/^\*PolyIndex prices · \w{3} \d{1,2} \w{3} \d{4}\*\n\n🛢 \*Feedstocks\* · [^\n]+\n\*Naphtha Japan\* US\$[\d,.]+\/t[^\n]*\n\*USD\/INR\* ₹[\d,.]+[^\n]*\n\n🇮🇳 \*Indian market\* · [^\n]+\n\*PP Raffia Mumbai\* ₹[\d,.]+\/kg[^\n]*\n\n/);
    expect(text!.text).toContain(`${more}\nReply STOP to end these updates.`);
    expect(text!.text.match(/https?:/g)).toHaveLength(1);
    const [template] = await dailyTo(quietNumber);
    expect(template!.type).toBe('polyindex_daily_update_5');
    expect(template!.request).toMatchObject({ template: { name: 'polyindex_daily_update_5', language: { code: 'en' } } });
    expect(template!.text).toContain(more);

    const mail = await bodyOf(chatting.email!);
    expect(mail.subject).toMatch(/^PolyIndex daily prices · \w{3} \d{1,2} \w{3} \d{4}$/);
    expect(mail.text).toMatch(/FEEDSTOCKS\nNaphtha Japan: US\$[^\n]+\nUSD\/INR: ₹[^\n]+\nAll feedstock prices: http:\/\/127\.0\.0\.1:4321\/crude\/Naphtha\?country=japan\n/);
    expect(mail.text).toMatch(/INDIAN MARKET\nPP Raffia Mumbai: ₹[^\n]+\nAll Indian prices: http:\/\/127\.0\.0\.1:4321\/indian-bazaar\/citywise\?city=mumbai\n/);
    expect(mail.text).toContain(`Change what you receive: ${SITE}/alerts`);
    for (const link of [`${SITE}/crude/Naphtha?country=japan`, `${SITE}/indian-bazaar/citywise?city=mumbai`]) expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html.match(/<tbody>/g)).toHaveLength(2);
  });

  it('Hindi: the update and its template in Hindi (language hi), the e-mail in Hindi', async () => {
    const user = await premiumUser('dl-hindi');
    const number = uniqueNumber();
    await verifyNumber(premiumSession(user), number);
    const put = await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: { series: ['city.delhi.ppRaffia', 'feedstock.crude.brent'], email: true, whatsapp: true, hour: nowHour(), language: 'hi' }, session: premiumSession(user) });
    expect(put).toMatchObject({ status: 200, json: { settings: { language: 'hi' } } });
    expect(await db.getDeliverySettings(user.uid)).toMatchObject({ language: 'hi' });
    // Saving without a language keeps it.
    await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: { series: ['city.delhi.ppRaffia', 'feedstock.crude.brent'], email: true, whatsapp: true, hour: nowHour() }, session: premiumSession(user) });
    expect(await db.getDeliverySettings(user.uid)).toMatchObject({ language: 'hi' });
    await runDailyUpdate(await deliveryDeps());
    const [message] = await dailyTo(number);
    expect(message!.request).toMatchObject({ template: { name: 'polyindex_daily_update_4', language: { code: 'hi' } } });
    expect(message!.text).toMatch(/^\*PolyIndex भाव · \S+, \d{1,2} \S+ \d{4}\*\n\n🛢 \*फ़ीडस्टॉक\* · [^\n]+\n\*ब्रेंट क्रूड\* US\$[\d,.]+\/बैरल[^\n]*\n🇮🇳 \*भारतीय बाज़ार\* · [^\n]+\n\*PP रैफ़िया दिल्ली\* ₹[\d,.]+\/किलो/);
    expect(message!.text).toContain('ये अपडेट बंद करने के लिए STOP भेजें।');
    const mail = await bodyOf(user.email!);
    expect(mail.subject).toMatch(/^PolyIndex दैनिक भाव · /);
    expect(mail.html).toContain('<html lang="hi">');
    expect(mail.text).toMatch(/PP रैफ़िया दिल्ली: ₹[\d,.]+\/किलो/);
  });

  it('Basic has no price screens: its update links only /alerts, never a page that would ask it to subscribe', async () => {
    const basic = await createUser('dl-links-basic', { subscribed: true, plan: 'Basic', expiresAt: inAYear });
    const number = uniqueNumber();
    await verifyNumber(sessionOf(basic, 'limited'), number);
    const put = await call(putSettingsRoute, '/api/alerts/settings', { method: 'PUT', body: { series: ['city.mumbai.ppRaffia', 'fx.usdinr'], email: true, whatsapp: true, hour: nowHour() }, session: sessionOf(basic, 'limited') });
    expect(put.status).toBe(200);
    await webhook(number, 'help');
    await runDailyUpdate(await deliveryDeps());
    const [text] = await dailyTo(number);
    expect(text!.text).toContain('*PP Raffia Mumbai* ₹');
    expect(text!.text).toContain(`More: ${SITE}/alerts`);
    expect(text!.text).not.toContain('/indian-bazaar/');
    const mail = await bodyOf(basic.email!);
    expect(mail.text).toContain('PP Raffia Mumbai: ₹');
    expect(mail.text).not.toContain('/indian-bazaar/');
    expect(mail.text).not.toMatch(/All .* prices:/);
  });
});

describe('a deleted price fires no alert', () => {
  in2094();
  it('deleting the latest point (a correction) neither fires nor re-arms; the next write steps on', async () => {
    const series = 'feedstock.butadiene.china';
    const user = await premiumUser('dl-delete');
    const session = premiumSession(user);
    const setPoint = async (date: string, value: number) => {
      expect((await call(setPointRoute, `/api/admin/prices/${series}/set`, { body: { date, value }, session: sessionOf(admin), params: { series } })).status).toBe(200);
      await priceAlertsSettled();
    };
    await setPoint('2091-01-01', 900);
    await setPoint('2091-01-02', 1_200);
    expect((await call(postAlertRoute, '/api/alerts', { body: { series, kind: 'below', value: 1_000, channels: ['email'] }, session })).status).toBe(201);
    // The later point goes: the latest is 900 again, below the alert's value, but nobody wrote a price.
    const deleted = await call(deletePointRoute, `/api/admin/prices/${series}/delete`, { body: { date: '2091-01-02', expected: 1_200 }, session: sessionOf(admin), params: { series } });
    expect(deleted.status, JSON.stringify(deleted.json)).toBe(200);
    await priceAlertsSettled();
    expect(await mailsTo(user.email!, /^Price alert/)).toHaveLength(0);
    // A written price below the value is a crossing from the state the last write left.
    await setPoint('2091-01-03', 950);
    expect(await mailsTo(user.email!, /^Price alert/)).toHaveLength(1);
  });
});

describe('the sandbox phone', () => {
  let site: Server;
  // Where a request's Host header could point: another listener on loopback, counting what reaches it.
  let elsewhere: Server;
  let elsewhereHits = 0;
  // The site's own loopback origin, as the server's configuration gives it (HOST and PORT) to the sandbox phone.
  let ownOrigin = '';
  const sandboxSendRoute = endpoint('admin', sandboxSendTo(() => ownOrigin));
  beforeAll(async () => {
    elsewhere = createServer((_req, res) => {
      elsewhereHits++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((done) => elsewhere.listen(0, '127.0.0.2', done));
    // This site's own server, as `npm start` runs it: loopback, the webhook behind it.
    site = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
        const request = new Request(url, { method: req.method ?? 'POST', headers: req.headers as Record<string, string>, body: Buffer.concat(chunks) });
        void Promise.resolve(webhookRoute({ request, url, params: {}, locals: { session: null } } as unknown as APIContext)).then(async (response) => {
          res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? 'text/plain' }).end(await response.text());
        });
      });
    });
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    const address = site.address();
    ownOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise<void>((done) => site.close(() => done()));
    await new Promise<void>((done) => elsewhere.close(() => done()));
  });

  it("posts the signed webhook to the server's own loopback address, whatever Host the request named", async () => {
    const number = uniqueNumber();
    // The request names another host: the signed webhook must not go there.
    const address = elsewhere.address();
    const spoofed = `http://127.0.0.2:${typeof address === 'object' && address ? address.port : 0}`;
    const sent = await call(sandboxSendRoute, '/api/admin/whatsapp/send', { body: { from: `+${number}`, text: 'help' }, session: sessionOf(admin), site: spoofed });
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    expect(elsewhereHits).toBe(0);
    expect(await lastReply(number)).toMatch(/pp raffia mumbai/);
  });
});

describe('start-up safety', () => {
  it('the server refuses a public address without DELIVERY_LINK_SECRET (one secret signs every instance\'s unsubscribe links)', () => {
    expect(() => assertSafeToServe('0.0.0.0')).toThrow(/DELIVERY_LINK_SECRET/);
    expect(() => assertSafeToServe('127.0.0.1')).not.toThrow();
  });
});

describe('the Cloud API adapter against a fake Graph server on loopback', () => {
  let graph: FakeGraph;
  beforeAll(async () => {
    graph = await startFakeGraph(REGISTERED_TEMPLATES);
  });
  afterAll(() => graph.close());

  it('posts to /{phone-number-id}/messages with the bearer token; maps Graph errors', async () => {
    const sender = createCloudApiSender({ token: 'EAAG-test', phoneNumberId: '1234567890', baseUrl: graph.baseUrl });
    expect(await sender.send({ kind: 'template', to: '919820012345', template: priceAlertTemplate('en'), params: ['a', 'b', 'c'] })).toEqual({ id: expect.stringMatching(/^wamid\.fake\./) });
    expect(graph.seen[0]).toMatchObject({ url: '/v21.0/1234567890/messages', auth: 'Bearer EAAG-test', status: 200, body: { messaging_product: 'whatsapp', to: '919820012345', type: 'template', template: { name: 'polyindex_price_alert' } } });
    graph.answers.push({ status: 400, body: { error: { message: 'Re-engagement message', type: 'OAuthException', code: 131047, fbtrace_id: 'x' } } });
    const refused = await sender.send({ kind: 'text', to: '919820012345', body: 'hi' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WhatsAppError);
    expect(refused).toMatchObject({ status: 400, code: 131047 });
    graph.answers.push({ status: 200, body: { messages: [] } });
    await expect(sender.send({ kind: 'text', to: '919820012345', body: 'hi' })).rejects.toThrow(/without a message id/);
  });

  it("the daily update in English and Hindi, as templates and as free text, is what Meta accepts; what it refuses, the sandbox outbox refuses too", async () => {
    const day = deliveryDayOf(new Date());
    const prices = ['city.mumbai.ppRaffia', 'feedstock.crude.brent', 'feedstock.naphtha.japan', 'fx.usdinr', 'historical.ppRaffia.cif-ns', ...instruments.filter((i) => i.source.kind === 'city').slice(20, 45).map((i) => i.id)].map((id) => ({
      instrument: findInstrument(id)!,
      latest: { date: day, value: 123456.78 },
      previous: { date: day, value: 120000 },
      screen: `${ORIGIN}${findInstrument(id)!.path}`,
    }));
    const sender = createCloudApiSender({ token: 'EAAG-test', phoneNumberId: '1234567890', baseUrl: graph.baseUrl });
    const before = graph.seen.length;
    for (const language of ['en', 'hi'] as const) {
      for (const count of [1, 5, prices.length]) {
        const update = whatsappDailyUpdate({ day, language, prices: prices.slice(0, count), moreLink: `${ORIGIN}/alerts` });
        await sender.send({ kind: 'template', to: '919820012345', template: update.template, params: update.params });
        await sender.send({ kind: 'text', to: '919820012345', body: update.text });
      }
    }
    const sent = graph.seen.slice(before);
    expect(sent.map((r) => [r.status, r.error])).toEqual(sent.map(() => [200, null]));
    expect(sent.filter((r) => r.body['type'] === 'template').map((r) => (r.body['template'] as { language: { code: string } }).language.code)).toEqual(['en', 'en', 'en', 'hi', 'hi', 'hi']);

    // A parameter with a line break (as the old update joined its lines): Meta refuses it, and so does the outbox.
    const bad = { kind: 'template' as const, to: '919820012345', template: dailyUpdateTemplate('en', 1), params: ['Tue 24 Nov 2026', 'line one\nline two', `${ORIGIN}/alerts`] };
    const badRequest = { ...graphRequestOf(bad), template: { ...(graphRequestOf(bad)['template'] as object), components: [{ type: 'body', parameters: bad.params.map((text) => ({ type: 'text', text })) }] } };
    const cloud = await fetch(`${graph.baseUrl}/1234567890/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(badRequest) });
    expect(((await cloud.json()) as { error: { code: number } }).error.code).toBe(132018);
    const tooLong = { kind: 'template' as const, to: '919820012345', template: dailyUpdateTemplate('hi', 1), params: ['मंगलवार', 'भाव '.repeat(300).trim(), `${ORIGIN}/alerts`] };
    await expect(sender.send(tooLong)).rejects.toMatchObject({ code: 132005 });
    await expect(createOutboxSender(join(TEST_DATA_DIR, 'refusing-outbox')).send(tooLong)).rejects.toMatchObject({ code: 132005 });
    expect(await readWhatsAppOutbox(join(TEST_DATA_DIR, 'refusing-outbox'))).toEqual([]);
  });
});
