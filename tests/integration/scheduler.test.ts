/**
 * The in-server scheduler (src/server/jobs/scheduler.ts) sends: at the top of an hour in India
 * (not UTC), croner starts the real delivery job, which sends a due daily update through the
 * real SQLite store and mail outbox. No wall-clock wait: the clock croner reads (Date and
 * setTimeout) is Vitest's fake one, moved by the test; the outbox is then polled for the mail.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveryDeps } from '../../src/server/delivery/index.ts';
import { runDeliveryJob, type DeliveryJobReport } from '../../src/server/delivery/job.ts';
import { schedulerRunning, startScheduler, stopScheduler } from '../../src/server/jobs/scheduler.ts';
import { listOutbox } from '../../src/server/mail/outbox.ts';
import { store } from '../../src/server/runtime.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { TEST_DATA_DIR } from './env.ts';

const MAIL_OUTBOX = join(TEST_DATA_DIR, 'outbox');
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
/** Only what croner reads; the store's and the outbox's I/O keep real time. */
const fakeClock = () => vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });

afterEach(() => {
  stopScheduler();
  vi.useRealTimers();
});

/** Today (UTC date) at this UTC time: 05:30 UTC is the top of 11:00 in India (UTC+5:30), not of any UTC hour. */
const todayAt = (utcTime: string): Date => new Date(`${new Date().toISOString().slice(0, 10)}T${utcTime}Z`);

describe('the in-server scheduler', () => {
  it('at the top of an hour in India it runs the delivery job, and a due daily update is sent', async () => {
    const db = await store();
    const uid = `sched-${Date.now().toString(36)}`;
    const user: UserRecord = { uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: true, plan: 'Premium', expiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString(), createdAt: '01-01-2026' };
    expect(await db.createUser(user)).toBe(true);
    // Set for 11:00 India time: the hour this run comes at (inside its delivery window).
    await db.saveDeliverySettings({ uid, series: ['fx.usdinr'], email: true, whatsapp: false, hour: 11, whatsappNumber: null, whatsappVerifiedAt: null, pending: null, updatedAt: new Date().toISOString() });
    const dailyMails = async () => (await listOutbox(MAIL_OUTBOX, 10_000)).filter((m) => m.to?.includes(user.email!) && /^PolyIndex daily prices/.test(m.subject ?? ''));
    const deps = { ...(await deliveryDeps()), log: quiet };

    const reports: DeliveryJobReport[] = [];
    let runs = 0;
    fakeClock();
    vi.setSystemTime(todayAt('05:29:58.000'));
    startScheduler({ run: async () => (runs++, reports.push(await runDeliveryJob(deps))), catchUpAfterMs: null, log: quiet });
    expect(schedulerRunning()).toBe(true);

    await vi.advanceTimersByTimeAsync(1_500); // 10:59:59.5 in India: not yet.
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000); // 11:00:00.5 in India.
    expect(runs).toBe(1);
    vi.useRealTimers();

    await expect.poll(() => reports.length, { timeout: 20_000 }).toBe(1);
    expect(reports[0]!.sent).toBeGreaterThanOrEqual(1);
    const mails = await dailyMails();
    expect(mails).toHaveLength(1);
    expect((await db.listDeliveries(uid)).filter((d) => d.kind === 'daily').map((d) => [d.channel, d.status])).toEqual([['email', 'sent']]);
  });

  it('runs once shortly after start (a run missed while the server was down), and a failing run is logged, not thrown', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    fakeClock();
    vi.setSystemTime(todayAt('05:40:00.000'));
    startScheduler({
      run: async () => {
        runs++;
        throw new Error('the store is down');
      },
      catchUpAfterMs: 15_000,
      log: { info: () => undefined, error: (...args: unknown[]) => errors.push(args) },
    });
    await vi.advanceTimersByTimeAsync(14_999);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as unknown[])[0])).toContain('[scheduler] the delivery job failed');
    // Nothing else until the next hour in India (06:30 UTC).
    await vi.advanceTimersByTimeAsync(49 * 60_000);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(2);
  });

  it('stops: no run after stopScheduler', async () => {
    let runs = 0;
    fakeClock();
    vi.setSystemTime(todayAt('05:29:59.000'));
    startScheduler({ run: async () => runs++, catchUpAfterMs: 15_000, log: quiet });
    stopScheduler();
    expect(schedulerRunning()).toBe(false);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(runs).toBe(0);
  });
});
