/**
 * "Exactly once per user per day, across restarts and instances": two processes run the
 * daily-update job at the same time over one store (two servers sharing it), then a third run
 * comes later the same day (a restart). Every user gets one update per channel. Every process
 * is given the same instant of that day (a clock of its own could cross IST midnight).
 *
 * On SQLite (one file), and on Firestore (one project of the run's Firestore): there only on
 * Google's emulator, whose transactions are isolated across processes as Firestore's are; the
 * in-memory stand-in does not isolate them (docs/data.md), so on machines without the emulator
 * package that case is skipped, and the run says so.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openFirestoreStore, openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { readWhatsAppOutbox } from '../../src/server/delivery/whatsapp.ts';
import { whatsappCodeHash } from '../../src/server/store/delivery.ts';
import { findSeries } from '../../src/lib/seriesCatalog.ts';
import { freshProjectId, realFirestore, suiteFirestore } from '../support/firestore.ts';
import { TEST_DATA_DIR } from './env.ts';

const run = promisify(execFile);
const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
const USERS = 6;

interface Backend {
  readonly name: string;
  readonly runs: boolean;
  /** A new, empty store: how the child processes name it, and a handle on it here. */
  open(dir: string): Promise<{ where: string; store: Store }>;
}

const BACKENDS: Backend[] = [
  {
    name: 'SQLite (one file)',
    runs: true,
    async open(dir) {
      const url = sqliteUrlFor(dir);
      return { where: url, store: await openStore({ url }) };
    },
  },
  {
    name: "Firestore (Google's emulator)",
    runs: realFirestore(),
    async open() {
      const { host } = suiteFirestore();
      const projectId = freshProjectId('daily-two');
      return { where: `firestore://${host}/${projectId}`, store: await openFirestoreStore({ projectId, emulatorHost: host }) };
    },
  },
];

describe.each(BACKENDS)('the daily update on two servers over one store: $name', (backend) => {
  it.runIf(backend.runs)('sends one update per user and channel, however many runs and processes', async () => {
    const dir = resolve(mkdtempSync(join(TEST_DATA_DIR, 'daily-two-')));
    const whatsappDir = join(dir, 'whatsapp-outbox');
    const mailDir = join(dir, 'outbox');
    const { where, store } = await backend.open(dir);
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

    const once = () => run(process.execPath, ['tests/integration/fixtures/daily-run.ts', where, whatsappDir, mailDir, now.toISOString()], { timeout: 120_000 }).then(({ stdout }) => JSON.parse(stdout.trim().split('\n').at(-1)!) as { sent: number; skipped: number; due: number });
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
  }, 240_000);
});
