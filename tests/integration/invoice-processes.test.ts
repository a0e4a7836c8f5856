/**
 * GST invoice numbers across two server processes over one store (docs/payments.md, "The
 * invoice"): two processes grant payments at the same time, each through its own store handle,
 * and the invoices they issue are numbered 1…n in the financial year with none twice and none
 * missing; a process started afterwards (a restart) goes on from n + 1. On SQLite (one file) and
 * on Firestore: there only on Google's emulator, whose transactions are isolated across processes
 * (the in-memory stand-in does not isolate them; the run says it skipped).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { financialYearOf } from '../../src/lib/gst/documentNumbers.ts';
import { isoDateOf } from '../../src/lib/dates.ts';
import { openFirestoreStore, openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { freshProjectId, realFirestore, suiteFirestore } from '../support/firestore.ts';
import { TEST_DATA_DIR } from './env.ts';

const run = promisify(execFile);

const BACKENDS = [
  {
    name: 'SQLite (one file)',
    runs: true,
    async open(): Promise<{ where: string; store: Store }> {
      const url = sqliteUrlFor(resolve(mkdtempSync(join(TEST_DATA_DIR, 'invoices-two-'))));
      return { where: url, store: await openStore({ url }) };
    },
  },
  {
    name: "Firestore (Google's emulator)",
    runs: realFirestore(),
    async open(): Promise<{ where: string; store: Store }> {
      const { host } = suiteFirestore();
      const projectId = freshProjectId('invoices-two');
      return { where: `firestore://${host}/${projectId}`, store: await openFirestoreStore({ projectId, emulatorHost: host }) };
    },
  },
];

interface Granted {
  readonly orderId: string;
  readonly number: string;
  readonly sequence: number;
}

const server = async (where: string, orderIds: readonly string[]): Promise<Granted[]> => {
  const { stdout } = await run(process.execPath, ['--experimental-transform-types', '--no-warnings', 'tests/integration/fixtures/invoice-grants.ts', 'grant', where, orderIds.join(',')], { timeout: 180_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Granted[];
};

/** Buyers with billing details and a created Premium order each. */
async function orders(store: Store, prefix: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const uid = `${prefix}${i}`;
    await store.createUser({ uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026' });
    await store.saveBillingDetails({ uid, legalName: `${uid} Polymers LLP`, address: ['12 Ring Road', 'Surat'], pin: '395002', stateCode: '24', gstin: null, updatedAt: new Date().toISOString() });
    await store.createOrder({ id: `order_${uid}`, uid, plan: 'Premium', amount: 1_500_000, currency: 'INR', receipt: `r_${uid}` }, new Date());
    ids.push(`order_${uid}`);
  }
  return ids;
}

describe.each(BACKENDS)('invoice numbers on two processes over one store: $name', (backend) => {
  it.runIf(backend.runs)('are consecutive in the financial year, none twice, and go on after a restart', async () => {
    const { where, store } = await backend.open();
    const a = await orders(store, 'a', 6);
    const b = await orders(store, 'b', 6);
    const later = await orders(store, 'c', 2);
    await store.close();
    // (A financial year that turned during the run would restart the numbers: not on 31 March.)
    const fy = financialYearOf(isoDateOf(new Date()));

    const [first, second] = await Promise.all([server(where, a), server(where, b)]);
    const both = [...first, ...second];
    expect(both.map((g) => g.sequence).toSorted((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(new Set(both.map((g) => g.number)).size).toBe(12);
    expect(both.every((g) => g.number.includes(`/${fy.label.slice(2)}/`))).toBe(true);

    const restarted = await server(where, later);
    expect(restarted.map((g) => g.sequence).toSorted((x, y) => x - y)).toEqual([13, 14]);
  }, 300_000);
});
