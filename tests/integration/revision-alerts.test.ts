/**
 * Producer revision alerts against the real SQLite store of the test DATA_DIR, the real mail
 * outbox and the real WhatsApp outbox: POST /api/alerts/revisions (the plan's right, every bad
 * input a 400 naming its field with nothing written), and a revision the desk enters in the
 * admin firing each watching alert once per channel, in the reader's language, by product and
 * producer; the same file again, the hourly job and a later line of the same revision send
 * nothing more.
 */
import { join } from 'node:path';
import type { APIRoute } from 'astro';
import { simpleParser } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import { isoDateOf } from '../../src/lib/dates.ts';
import { PRODUCER_CSV_HEADER } from '../../src/lib/producerPrices.ts';
import { POST as importRoute } from '../../src/pages/api/admin/producer-prices/import.ts';
import { POST as setRoute } from '../../src/pages/api/admin/producer-prices/index.ts';
import { POST as postRevisionAlertRoute } from '../../src/pages/api/alerts/revisions.ts';
import { GET as getSettingsRoute } from '../../src/pages/api/alerts/settings.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { evaluateRevisionAlerts } from '../../src/server/delivery/alerts.ts';
import { deliveryDeps, whatsappOutboxDir } from '../../src/server/delivery/index.ts';
import { runDeliveryJob } from '../../src/server/delivery/job.ts';
import { priceAlertsSettled } from '../../src/server/delivery/priceWrites.ts';
import { readWhatsAppOutbox } from '../../src/server/delivery/whatsapp.ts';
import { listOutbox, readOutboxMessage } from '../../src/server/mail/outbox.ts';
import { store } from '../../src/server/runtime.ts';
import { whatsappCodeHash } from '../../src/server/store/delivery.ts';
import type { Store } from '../../src/server/store/index.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { TEST_DATA_DIR } from './env.ts';
import { apiContext, sessionOf, userRecordOf } from './helpers.ts';

const MAIL_OUTBOX = join(TEST_DATA_DIR, 'outbox');
const inAYear = '2099-12-31T00:00:00.000Z';
let db: Store;
let admin: UserRecord;
let seq = 0;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
async function call(route: APIRoute, path: string, body: string, session: Session | null, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const { context } = apiContext(path, { method: 'POST', body, headers: { origin: 'http://127.0.0.1:4321', ...headers }, locals: { session } });
  const response = await route(context);
  return { status: response.status, json: await response.json() };
}
const postAlert = (body: unknown, session: Session | null, headers?: Record<string, string>) =>
  call(postRevisionAlertRoute, '/api/alerts/revisions', typeof body === 'string' ? body : JSON.stringify(body), session, headers);

async function createUser(prefix: string, extra: Partial<UserRecord> = {}): Promise<UserRecord> {
  const record = userRecordOf(`${prefix}-${Date.now().toString(36)}-${++seq}`, extra);
  expect(await db.createUser(record)).toBe(true);
  return record;
}
const premium = (prefix: string) => createUser(prefix, { subscribed: true, plan: 'Premium', expiresAt: inAYear });

/** A verified WhatsApp number for the user, through the store's own verification (a code it knows). */
async function verifiedNumber(user: UserRecord, language: 'en' | 'hi' = 'en'): Promise<string> {
  const number = `9197${String(Date.now() % 1e6).padStart(6, '0')}${String(++seq % 100).padStart(2, '0')}`;
  const now = new Date();
  const base = { uid: user.uid, series: [], email: false, whatsapp: false, hour: 9, language, whatsappNumber: null, whatsappVerifiedAt: null, pending: null, updatedAt: now.toISOString() };
  await db.saveDeliverySettings(base);
  const codeHash = whatsappCodeHash(user.uid, number, '123456');
  expect(await db.startWhatsAppCode({ uid: user.uid, number, codeHash, expiresAt: new Date(now.getTime() + 600_000).toISOString(), now, limits: [], base })).toEqual({ ok: true });
  expect(await db.tryWhatsAppCode({ uid: user.uid, code: '123456', now, maxAttempts: 5 })).toEqual({ outcome: 'verified', number });
  return number;
}

const revisionMails = async (user: UserRecord) => (await listOutbox(MAIL_OUTBOX, 10_000)).filter((m) => m.to?.includes(user.email!) && /^(Producer revision|उत्पादक रेट बदलाव)/.test(m.subject ?? ''));
const revisionMessages = async (number: string) => (await readWhatsAppOutbox(whatsappOutboxDir, number)).filter((m) => m.type === 'polyindex_price_alert');

/** A list price above every one its line had, so it revises the previous list whatever earlier runs wrote. */
async function nextValue(line: string): Promise<number> {
  const [producer] = line.split('.');
  const values = (await db.listProducerPrices(producer)).filter((r) => `${r.producer}.${r.grade}.${r.location}` === line).map((r) => r.value);
  return Math.round(Math.max(100, ...values) + 1.5);
}

beforeAll(async () => {
  db = await store();
  admin = await createUser('ra-admin', { role: 'admin' });
});

describe('POST /api/alerts/revisions: the plan’s right, and every bad input refused', () => {
  it('anonymous 401; Basic 403 naming the plans with alerts; Premium 201, listed on /alerts with its label', async () => {
    expect((await postAlert({ product: 'PP', channels: ['email'] }, null)).status).toBe(401);
    const basic = await createUser('ra-basic', { subscribed: true, plan: 'Basic', expiresAt: inAYear });
    expect(await postAlert({ product: 'PP', channels: ['email'] }, sessionOf(basic, 'limited'))).toMatchObject({ status: 403, json: { error: { code: 'forbidden', message: expect.stringContaining('Premium') } } });
    expect(await db.listAlertsByUid(basic.uid)).toEqual([]);
    const user = await premium('ra-ok');
    const created = await postAlert({ product: 'PP', producer: 'reliance', channels: ['email'] }, sessionOf(user, 'full'));
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json.alert).toMatchObject({ series: 'revisions.PP.reliance', kind: 'revision', label: 'Reliance (RIL) PP list-price revisions', channels: ['email'] });
    const { context } = apiContext('/api/alerts/settings', { locals: { session: sessionOf(user, 'full') } });
    const view = await (await getSettingsRoute(context)).json();
    expect(view.alerts).toEqual([created.json.alert]);
  });

  it('bad bodies are 400 in the site’s error shape naming the field, cross-origin is 403, and nothing is written', async () => {
    const user = await premium('ra-bad');
    const session = sessionOf(user, 'full');
    const bad: [unknown, string | undefined][] = [
      ['not json', undefined],
      [{ channels: ['email'] }, 'product'],
      [{ product: 'GOLD', channels: ['email'] }, 'product'],
      [{ product: 42, channels: ['email'] }, 'product'],
      [{ product: 'PP', producer: 'gail', channels: ['email'] }, 'producer'],
      [{ product: 'PP', producer: 'nobody', channels: ['email'] }, 'producer'],
      [{ product: 'PP', producer: 7, channels: ['email'] }, 'producer'],
      [{ product: 'PP', channels: [] }, 'channels'],
      [{ product: 'PP', channels: ['sms'] }, 'channels.0'],
      [{ product: 'PP', channels: ['email', 'email'] }, 'channels'],
      // No verified number yet.
      [{ product: 'PP', channels: ['whatsapp'] }, 'channels'],
    ];
    for (const [body, field] of bad) {
      const answer = await postAlert(body, session);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error, JSON.stringify(body)).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      expect(answer.json.error.field, JSON.stringify(body)).toBe(field);
    }
    expect((await postAlert({ product: 'PP', channels: ['email'] }, session, { origin: 'https://evil.example' })).status).toBe(403);
    expect(await db.listAlertsByUid(user.uid)).toEqual([]);
  });
});

describe('a revision the desk enters fires each watching alert once', () => {
  it('by e-mail and WhatsApp, in the reader’s language, per product and producer; the same file, the job and a later line of the same revision send nothing more', async () => {
    const today = isoDateOf(new Date());
    const line = 'hmel.ppRaffia.bathinda';
    // Three readers: HMEL PP by both channels (English), any producer's PP by e-mail (Hindi), HDPE (nothing).
    const hmel = await premium('ra-hmel');
    const number = await verifiedNumber(hmel);
    const anyPp = await premium('ra-anypp');
    await db.patchDeliverySettings(anyPp.uid, { language: 'hi' }, new Date(), { uid: anyPp.uid, series: [], email: false, whatsapp: false, hour: 9, whatsappNumber: null, whatsappVerifiedAt: null, pending: null, updatedAt: new Date().toISOString() });
    const hdpe = await premium('ra-hdpe');
    expect((await postAlert({ product: 'PP', producer: 'hmel', channels: ['email', 'whatsapp'] }, sessionOf(hmel, 'full'))).status).toBe(201);
    expect((await postAlert({ product: 'PP', channels: ['email'] }, sessionOf(anyPp, 'full'))).status).toBe(201);
    expect((await postAlert({ product: 'HDPE', producer: 'hmel', channels: ['email'] }, sessionOf(hdpe, 'full'))).status).toBe(201);

    const previous = (await db.listProducerPrices('hmel')).filter((r) => r.grade === 'ppRaffia' && r.location === 'bathinda' && r.effective < today).toSorted((a, b) => (a.effective < b.effective ? 1 : -1))[0]!;
    const value = await nextValue(line);
    const set = await call(setRoute, '/api/admin/producer-prices', JSON.stringify({ producer: 'hmel', grade: 'ppRaffia', location: 'bathinda', effective: today, value }), sessionOf(admin));
    expect(set.status, JSON.stringify(set.json)).toBe(200);
    await priceAlertsSettled();

    const change = (value - previous.value).toFixed(2);
    const mails = await revisionMails(hmel);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Producer revision: HPCL-Mittal \(HMEL\) revised PP from \d+ \w+$/);
    const raw = (await readOutboxMessage(MAIL_OUTBOX, mails[0]!.file))!;
    const text = (await simpleParser(raw)).text ?? '';
    expect(text).toContain(`PP Raffia ex-works Bathinda ₹${value.toFixed(2)}/kg ▲${change}`);
    expect(text).toContain('/indian-bazaar/rateRevision?producer=hmel&product=PP');
    const messages = await revisionMessages(number);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.text).toContain(`*Price alert*: HPCL-Mittal (HMEL) revised PP list prices from`);
    expect(messages[0]!.text).toContain(`PP Raffia ex-works Bathinda ₹${value.toFixed(2)}/kg ▲${change}`);
    expect(messages[0]!.text).toContain('/indian-bazaar/rateRevision?producer=hmel&product=PP');
    const hindi = await revisionMails(anyPp);
    expect(hindi.map((m) => m.subject)).toEqual([expect.stringMatching(/^उत्पादक रेट बदलाव: एचपीसीएल-मित्तल \(HMEL\) ने PP के भाव .+ से बदले$/)]);
    expect(await revisionMails(hdpe)).toEqual([]);

    // The same price in a file (nothing changes), the evaluation again (another instance), the hourly job: nothing more.
    const again = await call(importRoute, '/api/admin/producer-prices/import', `${PRODUCER_CSV_HEADER}\nhmel,ppRaffia,bathinda,${today},${value}\n`, sessionOf(admin), { 'content-type': 'text/csv' });
    expect(again).toMatchObject({ status: 200, json: { changed: 0 } });
    await priceAlertsSettled();
    const deps = await deliveryDeps();
    expect(await evaluateRevisionAlerts(deps)).toBe(0);
    expect((await runDeliveryJob(deps)).revisionAlerts).toBe(0);
    // Another line of the same revision (same producer, product and date), entered later: part of the announcement already sent.
    const depot = await call(setRoute, '/api/admin/producer-prices', JSON.stringify({ producer: 'hmel', grade: 'ppRaffia', location: 'delhi-depot', effective: today, value: await nextValue('hmel.ppRaffia.delhi-depot') }), sessionOf(admin));
    expect(depot.status).toBe(200);
    await priceAlertsSettled();
    expect(await revisionMails(hmel)).toHaveLength(1);
    expect(await revisionMessages(number)).toHaveLength(1);
    expect(await revisionMails(anyPp)).toHaveLength(1);
    expect((await db.listAlertsByUid(hmel.uid))[0]).toMatchObject({ crossings: 1, firedFor: `hmel.PP.${today}` });
  });
});
