/**
 * The hourly delivery job against the real SQLite store of the test DATA_DIR and the real
 * outboxes: alert messages that did not go (a failed send, a sender that died after the state
 * step) are sent by the next run, once, for a day after their crossing and never after; a
 * deleted alert's message is given up; the sent-log is pruned; the job endpoint's bearer check
 * (the one wrapper every jobs route uses); and the sent-log migration of an older database.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { APIContext } from 'astro';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as getSettingsRoute } from '../../src/pages/api/alerts/settings.ts';
import { ALERT_RETRY_MS, evaluateAlerts } from '../../src/server/delivery/alerts.ts';
import type { DeliveryDeps } from '../../src/server/delivery/dispatch.ts';
import { deliveryDeps, whatsappOutboxDir } from '../../src/server/delivery/index.ts';
import { runDeliveryJob } from '../../src/server/delivery/job.ts';
import { readWhatsAppOutbox, type WhatsAppSender } from '../../src/server/delivery/whatsapp.ts';
import { jobEndpoint } from '../../src/server/jobs/endpoint.ts';
import { listOutbox } from '../../src/server/mail/outbox.ts';
import { store } from '../../src/server/runtime.ts';
import { DELIVERY_LOG_RETENTION_MS, whatsappCodeHash, type AlertRecord } from '../../src/server/store/delivery.ts';
import { openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { recordMigrations } from '../../src/server/store/sqlite/tables.ts';
import { migrate, openSqlite } from '../../src/server/store/sqlite/database.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { TEST_DATA_DIR } from './env.ts';
import { sessionOf } from './helpers.ts';

const MAIL_OUTBOX = join(TEST_DATA_DIR, 'outbox');
const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
let db: Store;
let seq = 0;

beforeAll(async () => {
  db = await store();
});

const uniqueNumber = (): string => `9196${String(Date.now() % 1e6).padStart(6, '0')}${String(++seq % 100).padStart(2, '0')}`;

/** A Premium user with a verified WhatsApp number and an `above` alert on its own series' latest price. */
async function alertOwner(prefix: string, series: string): Promise<{ user: UserRecord; number: string; alert: AlertRecord }> {
  const uid = `${prefix}-${Date.now().toString(36)}-${++seq}`;
  const user: UserRecord = { uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: true, plan: 'Premium', expiresAt: inAYear, createdAt: '01-01-2026' };
  await db.createUser(user);
  const number = uniqueNumber();
  const now = new Date();
  await db.saveDeliverySettings({ uid, series: [], email: false, whatsapp: false, hour: 23, whatsappNumber: null, whatsappVerifiedAt: null, pending: { number, codeHash: whatsappCodeHash(uid, number, '123456'), expiresAt: inAYear, attempts: 0 }, updatedAt: now.toISOString() });
  expect(await db.tryWhatsAppCode({ uid, code: '123456', now, maxAttempts: 5 })).toMatchObject({ outcome: 'verified' });
  await db.upsertPoints([{ seriesId: series, date: '2092-01-01', value: 100 }]);
  const alert: AlertRecord = { id: `al_${randomUUID().replaceAll('-', '')}`, uid, instrument: series, kind: 'above', value: 150, channels: ['email', 'whatsapp'], reached: false, firedFor: null, crossings: 0, createdAt: now.toISOString(), updatedAt: now.toISOString() };
  expect(await db.createAlert(alert)).toBe(true);
  return { user, number, alert };
}

const alertMessages = async (number: string) => (await readWhatsAppOutbox(whatsappOutboxDir, number)).filter((m) => m.type === 'polyindex_price_alert' || /Price alert/.test(m.text));
const alertMails = async (email: string) => (await listOutbox(MAIL_OUTBOX, 10_000)).filter((m) => m.to?.includes(email) && /^Price alert/.test(m.subject ?? ''));

const failingWhatsApp: WhatsAppSender = {
  mode: 'sandbox',
  send: () => Promise.reject(new Error('Graph answered 503')),
};
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const depsWith = async (extra: Partial<DeliveryDeps>): Promise<DeliveryDeps> => ({ ...(await deliveryDeps()), log: quiet, ...extra });

describe('alert messages that did not go are sent by the hourly job', () => {
  it('a failed send is retried by the next run, once', async () => {
    const series = 'feedstock.edc.sea';
    const { user, number } = await alertOwner('job-fail', series);
    await db.upsertPoints([{ seriesId: series, date: '2092-01-02', value: 160 }]);
    // WhatsApp is down when the crossing is evaluated: the e-mail goes, the WhatsApp message does not.
    expect(await evaluateAlerts(await depsWith({ whatsapp: failingWhatsApp }), [series])).toBe(1);
    expect(await alertMails(user.email!)).toHaveLength(1);
    expect(await alertMessages(number)).toHaveLength(0);
    expect((await db.listDeliveries(user.uid)).map((d) => [d.channel, d.status]).toSorted()).toEqual([['email', 'sent'], ['whatsapp', 'pending']]);

    const report = await runDeliveryJob(await depsWith({}));
    expect(report.alerts.sent).toBeGreaterThanOrEqual(1);
    expect(await alertMessages(number)).toHaveLength(1);
    expect((await alertMessages(number))[0]!.text).toContain('EDC SEA reaches or passes US$150.00/t');
    await runDeliveryJob(await depsWith({}));
    expect(await alertMessages(number)).toHaveLength(1);
    expect(await alertMails(user.email!)).toHaveLength(1);
  });

  it('a crossing recorded by a sender that died before sending is sent by the next run, with the prices it fired on', async () => {
    const series = 'feedstock.vcm.sea';
    const { user, number, alert } = await alertOwner('job-crash', series);
    const payload = JSON.stringify({ latest: { date: '2092-01-02', value: 155 }, previous: { date: '2092-01-01', value: 100 } });
    // The step and its messages, committed together; then the process "dies".
    const stepped = await db.stepAlertState(alert.id, alert, { reached: true, firedFor: null, crossings: 1 }, new Date(), [
      { uid: user.uid, kind: 'alert', ref: `${alert.id}#1`, channel: 'email', payload },
      { uid: user.uid, kind: 'alert', ref: `${alert.id}#1`, channel: 'whatsapp', payload },
    ]);
    expect(stepped).toBe(true);
    await runDeliveryJob(await depsWith({}));
    expect(await alertMails(user.email!)).toHaveLength(1);
    const [message] = await alertMessages(number);
    expect(message!.text).toContain('Now: US$155.00/t ▲55.00 (55.00%) · 2 Jan');
  });

  it('a deleted alert is given up; a message older than a day after its crossing is given up', async () => {
    const deleted = await alertOwner('job-deleted', 'feedstock.acn.sea');
    const payload = JSON.stringify({ latest: { date: '2092-01-02', value: 155 }, previous: null });
    const step = (owner: typeof deleted, at: Date) =>
      db.stepAlertState(owner.alert.id, owner.alert, { reached: true, firedFor: null, crossings: 1 }, at, [{ uid: owner.user.uid, kind: 'alert', ref: `${owner.alert.id}#1`, channel: 'email', payload }]);
    await step(deleted, new Date());
    expect(await db.deleteAlert(deleted.user.uid, deleted.alert.id)).toBe(true);
    const stale = await alertOwner('job-stale', 'feedstock.pta.china');
    await step(stale, new Date(Date.now() - ALERT_RETRY_MS - 60_000));

    const report = await runDeliveryJob(await depsWith({}));
    expect(report.alerts.dropped).toBeGreaterThanOrEqual(2);
    for (const owner of [deleted, stale]) {
      expect(await alertMails(owner.user.email!)).toHaveLength(0);
      expect((await db.listDeliveries(owner.user.uid)).map((d) => d.status)).toEqual(['dropped']);
    }
  });

  it('a weekly digest whose forecasts cannot be read holds up nothing: the run still prunes, and reports the failure', async () => {
    const uid = `job-digest-${Date.now().toString(36)}-${++seq}`;
    await db.createUser({ uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: true, plan: 'Premium', expiresAt: inAYear, createdAt: '01-01-2026' });
    // Monday 30 Nov 2026, 09:30 IST: the digest of an hour-9 subscriber is due.
    const monday = new Date('2026-11-30T04:00:00Z');
    await db.saveDeliverySettings({ uid, series: ['city.mumbai.ppRaffia'], email: true, whatsapp: false, hour: 9, forecastDigest: true, whatsappNumber: null, whatsappVerifiedAt: null, pending: null, updatedAt: monday.toISOString() });
    const old = new Date(monday.getTime() - DELIVERY_LOG_RETENTION_MS - 3_600_000);
    await db.completeDelivery((await db.claimDelivery({ uid, kind: 'inbound', ref: 'wamid.old', channel: 'none' }, old))!, old);
    const unreadable = { forSeries: () => Promise.reject(new Error('forecasts unreadable')) };
    try {
      const report = await runDeliveryJob(await depsWith({ now: () => monday, forecasts: unreadable }));
      expect(report.digest).toEqual({ due: 0, sent: 0, skipped: 0, failed: 1 });
      expect(report.pruned).toBeGreaterThanOrEqual(1);
      expect((await db.listDeliveries(uid)).map((d) => [d.kind, d.ref])).toEqual([['daily', '2026-11-30']]);
    } finally {
      // Its digest was never sent, so it would still be due on that Monday for the next file
      // that runs the digest in this shared store (tests/integration/delivery.test.ts counts who is due).
      await db.patchDeliverySettings(uid, { forecastDigest: false }, monday, null);
    }
  });

  it('the run prunes sent-log records older than the retention', async () => {
    const uid = `job-prune-${++seq}`;
    const old = new Date(Date.now() - DELIVERY_LOG_RETENTION_MS - 3_600_000);
    const claim = (await db.claimDelivery({ uid, kind: 'inbound', ref: 'wamid.old', channel: 'none' }, old))!;
    await db.completeDelivery(claim, old);
    await db.claimDelivery({ uid, kind: 'inbound', ref: 'wamid.new', channel: 'none' }, new Date());
    const report = await runDeliveryJob(await depsWith({}));
    expect(report.pruned).toBeGreaterThanOrEqual(1);
    expect((await db.listDeliveries(uid)).map((d) => d.ref)).toEqual(['wamid.new']);
  });
});

describe('the delivery window: an update goes between its hour and three hours after, never late at night', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A Premium user whose update is set for 09:00 IST, by e-mail and on a verified WhatsApp number. */
  async function nineOClockSubscriber(now: Date): Promise<{ user: UserRecord; number: string }> {
    const uid = `job-window-${Date.now().toString(36)}-${++seq}`;
    const user: UserRecord = { uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: true, plan: 'Premium', expiresAt: new Date(now.getTime() + 365 * 86_400_000).toISOString(), createdAt: '01-01-2026' };
    await db.createUser(user);
    const number = uniqueNumber();
    await db.saveDeliverySettings({ uid, series: ['fx.usdinr'], email: true, whatsapp: false, hour: 9, whatsappNumber: null, whatsappVerifiedAt: null, pending: { number, codeHash: whatsappCodeHash(uid, number, '123456'), expiresAt: new Date(now.getTime() + 600_000).toISOString(), attempts: 0 }, updatedAt: now.toISOString() });
    expect(await db.tryWhatsAppCode({ uid, code: '123456', now, maxAttempts: 5 })).toMatchObject({ outcome: 'verified' });
    await db.patchDeliverySettings(uid, { whatsapp: true }, now, null);
    return { user, number };
  }

  const dailyMails = async (email: string) => (await listOutbox(MAIL_OUTBOX, 10_000)).filter((m) => m.to?.includes(email) && /^PolyIndex daily prices/.test(m.subject ?? ''));
  const dailyMessages = async (number: string) => (await readWhatsAppOutbox(whatsappOutboxDir, number)).filter((m) => m.type.startsWith('polyindex_daily_update_') || m.text.startsWith('*PolyIndex prices'));

  it('set for 09:00, the job run at 23:00 the same day sends nothing, and its report and /alerts say so; the next morning it goes', async () => {
    // The real job on a faked clock: 23:00 IST on 10 March 2093 (only Date is faked; timers and I/O run as ever).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2093-03-10T17:30:00.000Z'));
    const { user, number } = await nineOClockSubscriber(new Date());

    const late = await runDeliveryJob(await depsWith({}));
    expect(late).toMatchObject({ day: '2093-03-10', windowHours: 3 });
    expect(late.missed).toBeGreaterThanOrEqual(1);
    expect(await dailyMails(user.email!)).toHaveLength(0);
    expect(await dailyMessages(number)).toHaveLength(0);
    expect((await db.listDeliveries(user.uid)).filter((d) => d.kind === 'daily').map((d) => [d.ref, d.channel, d.status]).toSorted()).toEqual([
      ['2093-03-10', 'email', 'dropped'],
      ['2093-03-10', 'whatsapp', 'dropped'],
    ]);

    // /alerts (its settings API) says what happened.
    const request = new Request('http://127.0.0.1:4321/api/alerts/settings');
    const view = (await (await getSettingsRoute({ request, url: new URL(request.url), params: {}, locals: { session: sessionOf(user, 'full') } } as unknown as APIContext)).json()) as { missed: unknown; windowHours: number };
    expect(view.windowHours).toBe(3);
    expect(view.missed).toEqual({
      day: '2093-03-10',
      ranAt: '2093-03-10T17:30:00.000Z',
      channels: ['email', 'whatsapp'],
      message: 'Your update of Tue 10 Mar (e-mail and WhatsApp) was skipped: the delivery run came at 23:00 IST, after its window (09:00–12:00 IST). Updates go only inside their window; the next one comes on Wed 11 Mar from 09:00 IST.',
    });

    // Later runs that night neither send it nor count it again.
    vi.setSystemTime(new Date('2093-03-10T18:00:00.000Z'));
    await runDeliveryJob(await depsWith({}));
    expect(await dailyMails(user.email!)).toHaveLength(0);

    // 09:30 IST the next morning: inside the window, one update per channel.
    vi.setSystemTime(new Date('2093-03-11T04:00:00.000Z'));
    const morning = await runDeliveryJob(await depsWith({}));
    expect(morning.day).toBe('2093-03-11');
    expect(await dailyMails(user.email!)).toHaveLength(1);
    expect(await dailyMessages(number)).toHaveLength(1);
  });

  it('a run inside the window sends; one at its end skips the day; an hour of 22:00 goes past midnight', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2093-04-01T06:29:00.000Z')); // 11:59 IST: the last minute of the window
    const { user } = await nineOClockSubscriber(new Date());
    await runDeliveryJob(await depsWith({}));
    expect(await dailyMails(user.email!)).toHaveLength(1);

    vi.setSystemTime(new Date('2093-04-02T06:30:00.000Z')); // 12:00 IST the next day: the window has closed
    await runDeliveryJob(await depsWith({}));
    expect(await dailyMails(user.email!)).toHaveLength(1);

    await db.patchDeliverySettings(user.uid, { hour: 22 }, new Date(), null);
    vi.setSystemTime(new Date('2093-04-03T19:00:00.000Z')); // 00:30 IST on the 4th: the 3rd's 22:00 update, still in its window
    await runDeliveryJob(await depsWith({}));
    expect(await dailyMails(user.email!)).toHaveLength(2);
    expect((await db.listDeliveries(user.uid)).filter((d) => d.kind === 'daily').map((d) => [d.ref, d.channel, d.status]).toSorted()).toEqual([
      ['2093-04-01', 'email', 'sent'],
      ['2093-04-01', 'whatsapp', 'sent'],
      ['2093-04-02', 'email', 'dropped'],
      ['2093-04-02', 'whatsapp', 'dropped'],
      ['2093-04-03', 'email', 'sent'],
      ['2093-04-03', 'whatsapp', 'sent'],
    ]);
  });
});

describe('the job endpoint (the one wrapper of every jobs route)', () => {
  const post = (route: ReturnType<typeof jobEndpoint>, authorization?: string) => {
    const request = new Request('http://127.0.0.1:4321/api/jobs/daily-update', { method: 'POST', headers: authorization ? { authorization } : {} });
    return Promise.resolve(route({ request, url: new URL(request.url), params: {}, locals: { session: null } } as unknown as APIContext));
  };

  it('is 404 without a secret; with one, 401 without the right bearer, else one run and its report', async () => {
    let runs = 0;
    const route = jobEndpoint('s3cret-jobs', async () => ({ ran: ++runs }));
    expect((await post(jobEndpoint(null, async () => ++runs), 'Bearer s3cret-jobs')).status).toBe(404);
    for (const header of [undefined, 'Bearer wrong', 'Basic s3cret-jobs', 'Bearer s3cret-jobsX', 'bearer s3cret-jobs', 'Bearer ']) {
      const answer = await post(route, header);
      expect(answer.status, String(header)).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect(runs).toBe(0);
    const ok = await post(route, 'Bearer s3cret-jobs');
    expect(await ok.json()).toEqual({ ran: 1 });
  });

  it("the real job's report: the daily update, the weekly forecast digest, the alert retries and the pruning", async () => {
    const route = jobEndpoint('x', async () => runDeliveryJob(await depsWith({})));
    const answer = await (await post(route, 'Bearer x')).json();
    expect(answer).toMatchObject({
      day: expect.any(String),
      due: expect.any(Number),
      sent: expect.any(Number),
      digest: { due: expect.any(Number), sent: expect.any(Number), skipped: expect.any(Number), failed: expect.any(Number) },
      alerts: { sent: expect.any(Number), failed: expect.any(Number), dropped: expect.any(Number) },
      pruned: expect.any(Number),
    });
  });
});

describe('the sent-log of an older database', () => {
  it('keeps its records through the migration: created when first claimed, no claim token, claimable as before', async () => {
    const url = sqliteUrlFor(mkdtempSync(join(TEST_DATA_DIR, 'delivery-migration-')));
    const client = await openSqlite({ url });
    await migrate(client, recordMigrations.filter((m) => m.id === 'delivery-001'));
    await client.execute({
      sql: 'INSERT INTO delivery_log (key, uid, kind, ref, channel, status, claimed_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?)',
      args: ['daily:u1:2026-11-20:email', 'u1', 'daily', '2026-11-20', 'email', 'sent', '2026-11-20T04:00:00.000Z', '2026-11-20T04:00:01.000Z', 'alert:u1:al_1#1:email', 'u1', 'alert', 'al_1#1', 'email', 'claimed', '2026-11-20T05:00:00.000Z', null],
    });
    client.close();
    const migrated = await openStore({ url });
    try {
      expect(await migrated.listDeliveries('u1')).toEqual([
        { key: 'alert:u1:al_1#1:email', uid: 'u1', kind: 'alert', ref: 'al_1#1', channel: 'email', status: 'claimed', createdAt: '2026-11-20T05:00:00.000Z', claimedAt: '2026-11-20T05:00:00.000Z', claimId: null, sentAt: null, payload: null },
        { key: 'daily:u1:2026-11-20:email', uid: 'u1', kind: 'daily', ref: '2026-11-20', channel: 'email', status: 'sent', createdAt: '2026-11-20T04:00:00.000Z', claimedAt: '2026-11-20T04:00:00.000Z', claimId: null, sentAt: '2026-11-20T04:00:01.000Z', payload: null },
      ]);
      expect(await migrated.claimDelivery({ uid: 'u1', kind: 'daily', ref: '2026-11-20', channel: 'email' }, new Date())).toBeNull();
      // The old claim has long lapsed.
      expect(await migrated.claimDelivery({ uid: 'u1', kind: 'alert', ref: 'al_1#1', channel: 'email' }, new Date())).not.toBeNull();
    } finally {
      await migrated.close();
    }
  });
});
