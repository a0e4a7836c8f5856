/**
 * "Exactly once per user per day, across restarts and instances": two processes run the
 * daily-update job at the same time over one SQLite file (two servers sharing a store), then a
 * third run comes later the same day (a restart). Every user gets one update per channel. Every
 * process is given the same instant of that day (a clock of its own could cross IST midnight).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openStore, sqliteUrlFor } from '../../src/server/store/index.ts';
import { readWhatsAppOutbox } from '../../src/server/delivery/whatsapp.ts';
import { whatsappCodeHash } from '../../src/server/store/delivery.ts';
import { findSeries } from '../../src/lib/seriesCatalog.ts';
import { TEST_DATA_DIR } from './env.ts';

const run = promisify(execFile);
const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
const USERS = 6;

describe('the daily update on two servers over one store', () => {
  it('sends one update per user and channel, however many runs and processes', async () => {
    const dir = resolve(mkdtempSync(join(TEST_DATA_DIR, 'daily-two-')));
    const url = sqliteUrlFor(dir);
    const whatsappDir = join(dir, 'whatsapp-outbox');
    const mailDir = join(dir, 'outbox');
    const store = await openStore({ url });
    // 12:00 IST on a fixed day: every run, whenever it starts, belongs to this day and is due (hour 10: its window runs to 13:00).
    const now = new Date('2026-11-24T06:30:00.000Z');
    await store.upsertSeries([findSeries('fx.usdinr')!]);
    await store.upsertPoints([{ seriesId: 'fx.usdinr', date: '2026-01-01', value: 84 }, { seriesId: 'fx.usdinr', date: '2026-01-02', value: 84.5 }]);
    for (let i = 0; i < USERS; i++) {
      const uid = `two-${i}`;
      const number = `9198765000${String(i).padStart(2, '0')}`;
      await store.createUser({ uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: true, plan: 'Premium', expiresAt: inAYear, createdAt: '01-01-2026' });
      await store.saveDeliverySettings({ uid, series: ['fx.usdinr'], email: true, whatsapp: false, hour: 10, whatsappNumber: null, whatsappVerifiedAt: null, pending: { number, codeHash: whatsappCodeHash(uid, number, '123456'), expiresAt: inAYear, attempts: 0 }, updatedAt: now.toISOString() });
      expect(await store.tryWhatsAppCode({ uid, code: '123456', now, maxAttempts: 5 })).toEqual({ outcome: 'verified', number });
      await store.patchDeliverySettings(uid, { whatsapp: true }, now, null);
    }
    await store.close();

    const once = () => run(process.execPath, ['tests/integration/fixtures/daily-run.ts', url, whatsappDir, mailDir, now.toISOString()], { timeout: 60_000 }).then(({ stdout }) => JSON.parse(stdout.trim().split('\n').at(-1)!) as { sent: number; skipped: number; due: number });
    const [a, b] = await Promise.all([once(), once()]);
    const later = await once();
    expect(a.due).toBe(USERS);
    expect(new Set([a, b, later].map((r) => (r as unknown as { day: string }).day))).toEqual(new Set(['2026-11-24']));
    expect(a.sent + b.sent).toBe(USERS * 2);
    expect(later).toMatchObject({ due: USERS, sent: 0, skipped: USERS * 2 });

    const whatsapp = await readWhatsAppOutbox(whatsappDir);
    expect(whatsapp).toHaveLength(USERS);
    expect(new Set(whatsapp.map((m) => m.to)).size).toBe(USERS);
    expect(whatsapp.every((m) => m.type === 'polyindex_daily_update_2')).toBe(true);
    expect(readdirSync(mailDir).filter((f) => f.endsWith('.eml'))).toHaveLength(USERS);
  }, 180_000);
});
