/**
 * Data written before the registry of record kinds still opens and reads the same: a SQLite
 * file, and Firestore documents (dumped raw), both written by the store of main a2045bc
 * through its own API (tests/fixtures/store/, made by writing one record of every document
 * kind). Counts and checksums of every kind are what that store computed itself; look-ups,
 * lists and the next audit number carry on from the data as it was.
 */
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Timestamp } from 'firebase-admin/firestore';
import { afterAll, describe, expect, it } from 'vitest';
import { startFirestoreFake, type FirestoreFake } from '../../scripts/lib/firestore-fake.mjs';
import { summarizeKind } from '../../src/server/store/copy.ts';
import { openFirestore, type FirestoreHandle } from '../../src/server/store/firestore/database.ts';
import { firestoreStoreOver, openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { summarize } from '../../src/server/store/checksum.ts';
import { TRANSFER_KINDS } from '../../src/server/store/kinds.ts';
import { TEST_DATA_DIR } from '../integration/env.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/store');
const fixture = JSON.parse(readFileSync(join(FIXTURES, 'store-before-registry.json'), 'utf8')) as {
  sqlite: Record<string, { count: number; checksum: string }>;
  firestore: Record<string, { count: number; checksum: string }>;
  firestoreDocuments: { path: string; data: Record<string, unknown> }[];
};

let fake: FirestoreFake | null = null;
const handles: FirestoreHandle[] = [];
afterAll(async () => {
  for (const handle of handles) await handle.close();
  await fake?.stop();
});

/** The JSON dump's Timestamps (`{_seconds, _nanoseconds}`) as Timestamps again. */
const revived = (value: unknown): unknown => {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(revived);
  const { _seconds: seconds, _nanoseconds: nanos } = value as { _seconds?: number; _nanoseconds?: number };
  if (typeof seconds === 'number' && typeof nanos === 'number') return new Timestamp(seconds, nanos);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revived(v)]));
};

async function expectSameAsBefore(store: Store, sums: Record<string, { count: number; checksum: string }>) {
  // Kinds added after that store was written (billing details, invoices …) read as empty there.
  for (const kind of TRANSFER_KINDS) expect(await summarizeKind(store, kind), kind).toEqual(sums[kind] ?? summarize(kind, []));
  expect(await store.hasNoForecasts()).toBe(true);
  expect((await store.findUserBy('email', 'asha@EXAMPLE.test'))?.uid).toBe('u-1');
  expect((await store.findUserBy('phone', ' +919820000001 '))?.company).toBe('Polymers Pvt Ltd');
  expect((await store.cachedUser('u-1'))?.plan).toBe('Premium');
  expect((await store.listOrdersByUid('u-1')).map((o) => o.status)).toEqual(['paid']);
  expect(await store.countOrdersByStatus()).toEqual({ created: 0, paid: 1, failed: 1 });
  expect(await store.recordEvent({ id: 'evt_1', type: 'payment.captured' }, new Date())).toBe(false);
  const audit = await store.listAudit({ actor: 'desk@polyindex.test' });
  expect(audit.entries.map((e) => [e.id, e.after?.['role']])).toEqual([[2, 'user'], [1, 'admin']]);
  expect((await store.listSavedViews('u-1')).map((v) => v.name)).toEqual(['PP vs PE']);
  expect((await store.listActiveDeliverySettings()).map((s) => s.uid)).toEqual(['u-1']);
  expect((await store.listAlertsByInstrument('pp-india')).map((a) => a.id)).toEqual(['al-1']);
  expect((await store.getWhatsAppContact('919820000002'))?.optedIn).toBe(false);
  expect((await store.listDeliveries('u-1')).map((d) => [d.kind, d.status])).toEqual(expect.arrayContaining([['daily', 'sent'], ['inbound', 'claimed']]));
  expect(await store.claimDelivery({ uid: 'u-1', kind: 'daily', ref: '2026-11-20', channel: 'email' }, new Date())).toBeNull();
  // Writes carry on: the next audit entry takes the next number.
  const next = await store.adminUpdateUser({ uid: 'u-1', change: () => ({ ok: true, patch: { city: 'Surat' } }), actor: { uid: 'admin-1', email: null }, action: 'user.edit', now: new Date() });
  expect(next.kind === 'updated' && next.entry.id).toBe(3);
}

describe('data written before the registry of record kinds', () => {
  it('a SQLite file opens (no table recreated) and reads the same', async () => {
    const dir = mkdtempSync(join(TEST_DATA_DIR, 'before-registry-'));
    copyFileSync(join(FIXTURES, 'store-before-registry.db'), join(dir, 'polyindex.db'));
    const store = await openStore({ url: sqliteUrlFor(dir) });
    try {
      await expectSameAsBefore(store, fixture.sqlite);
    } finally {
      await store.close();
    }
  });

  it('Firestore documents read the same', async () => {
    const host = process.env['FIRESTORE_EMULATOR_HOST']?.trim() || (fake = await startFirestoreFake()).host;
    const handle = openFirestore({ projectId: `demo-before-registry-${process.pid}-${Date.now()}`, emulatorHost: host });
    handles.push(handle);
    for (const { path, data } of fixture.firestoreDocuments) await handle.db.doc(path).set(revived(data) as Record<string, unknown>);
    await expectSameAsBefore(firestoreStoreOver(handle.db), fixture.firestore);
  });
});
