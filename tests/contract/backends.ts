/**
 * The backends the store contract suite runs against. Every `open()` gives a store of its own,
 * with no data shared with any other: a new SQLite file, or a new Firestore project id.
 *
 * - `sqlite`: always (a temp file under the test data dir).
 * - `firestore`: the Firebase emulator at FIRESTORE_EMULATOR_HOST when set, otherwise the
 *   offline stand-in (`@firestore-emulator/server`), started in this process on the first
 *   open and stopped after the test file.
 *
 * CONTRACT_BACKENDS=sqlite (a comma-separated list) runs only the named backends.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, it } from 'vitest';
import { startFirestoreFake } from '../../scripts/lib/firestore-fake.mjs';
import { openFirestoreStore, openStore, sqliteUrlFor, type Store, type StoreCacheOptions } from '../../src/server/store/index.ts';
import { TEST_DATA_DIR } from '../integration/env.ts';

export interface Backend {
  readonly name: 'sqlite' | 'firestore';
  /** A new, empty store of this backend (`options`: its user-record cache, e.g. a test clock). */
  open(options?: StoreCacheOptions): Promise<Store>;
  /**
   * Two handles on one new, empty database, as two server processes would hold them, for tests
   * that use them one after the other (a SQLite file opened twice: fine while neither waits for
   * the other's write lock). Each handle gets its own `options`.
   */
  openPair(a?: StoreCacheOptions, b?: StoreCacheOptions): Promise<readonly [Store, Store]>;
  /**
   * Two handles on one new, empty database, as two server processes would hold them; absent
   * where two handles cannot run concurrently in one process (the local SQLite driver is
   * synchronous: a second connection busy-waits on the event loop the first one needs).
   */
  openTwins?: (() => Promise<readonly [Store, Store]>) | undefined;
  /** The Firebase emulator (or real Firestore), not the offline stand-in. */
  readonly realFirestore: boolean;
  /**
   * Transactions are isolated across processes (docs/data.md, "Firestore layout"): SQLite, and
   * the Firebase emulator. The offline stand-in does not isolate them.
   */
  readonly isolatedTransactions: boolean;
}

const emulatorHost = process.env['FIRESTORE_EMULATOR_HOST']?.trim() || undefined;

type Fake = Awaited<ReturnType<typeof startFirestoreFake>>;
let fake: Promise<Fake> | null = null;

/** The Firestore host of this test file: the emulator, or the stand-in started once. */
async function firestoreHost(): Promise<string> {
  if (emulatorHost) return emulatorHost;
  fake ??= startFirestoreFake({ port: 0 });
  return (await fake).host;
}

afterAll(async () => {
  if (fake) await (await fake).stop();
  fake = null;
});

/** Demo project ids keep the Firebase emulator from reaching for a real project. */
const freshProjectId = (): string => `demo-contract-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

const sqlite: Backend = {
  name: 'sqlite',
  async open(options = {}) {
    const dir = mkdtempSync(join(TEST_DATA_DIR, 'contract-'));
    return openStore({ url: sqliteUrlFor(dir), ...options });
  },
  async openPair(a = {}, b = {}) {
    const url = sqliteUrlFor(mkdtempSync(join(TEST_DATA_DIR, 'contract-')));
    return [await openStore({ url, ...a }), await openStore({ url, ...b })] as const;
  },
  realFirestore: false,
  isolatedTransactions: true,
};

const firestore: Backend = {
  name: 'firestore',
  async open(options = {}) {
    return openFirestoreStore({ projectId: freshProjectId(), emulatorHost: await firestoreHost(), ...options });
  },
  async openPair(a = {}, b = {}) {
    const options = { projectId: freshProjectId(), emulatorHost: await firestoreHost() };
    return [await openFirestoreStore({ ...options, ...a }), await openFirestoreStore({ ...options, ...b })] as const;
  },
  async openTwins() {
    const options = { projectId: freshProjectId(), emulatorHost: await firestoreHost() };
    return [await openFirestoreStore(options), await openFirestoreStore(options)] as const;
  },
  realFirestore: emulatorHost !== undefined,
  isolatedTransactions: emulatorHost !== undefined,
};

const selected = (process.env['CONTRACT_BACKENDS'] ?? 'sqlite,firestore')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
for (const name of selected) {
  if (name !== 'sqlite' && name !== 'firestore') throw new Error(`CONTRACT_BACKENDS: unknown backend ${JSON.stringify(name)}`);
}

export const backends: Backend[] = [sqlite, firestore].filter((backend) => selected.includes(backend.name));

/** Whether transactions on this backend are isolated across processes (see Backend). */
export const isolatedTransactions = (backend: Backend): boolean => backend.isolatedTransactions;

/**
 * A new store of `backend` for every test of the enclosing describe, closed after it. Call at
 * describe level; the returned function gives the current test's store.
 */
export function storePerTest(backend: Backend): () => Store {
  let store: Store | null = null;
  beforeEach(async () => {
    store = await backend.open();
  });
  afterEach(async () => {
    await store?.close();
    store = null;
  });
  return () => {
    if (!store) throw new Error('no store outside a test');
    return store;
  };
}

/** Runs `work` on two handles of one new database (see Backend.openTwins), closing both after. */
export async function withTwins<T>(backend: Backend, work: (a: Store, b: Store) => Promise<T>): Promise<T> {
  if (!backend.openTwins) throw new Error(`${backend.name} has no twin handles`);
  const [a, b] = await backend.openTwins();
  try {
    return await work(a, b);
  } finally {
    await a.close();
    await b.close();
  }
}

/** A call that may throw synchronously or reject, as a promise (adapters differ in which). */
export const attempt = <T>(call: () => Promise<T>): Promise<T> => Promise.resolve().then(call);

/**
 * `it` for tests that need two processes' handles on one database: such tests exist only for
 * backends that have them (SQLite's cross-process behaviour is the file lock's, which one
 * process cannot exercise). Those that also need isolated transactions run only where
 * transactions are isolated: SQLite has no twins, so that is the Firebase emulator
 * (FIRESTORE_EMULATOR_HOST; docs/deploy.md §9), never the offline stand-in.
 */
export function twinTest(backend: Backend, { isolated = false }: { isolated?: boolean } = {}): typeof it | ((...args: Parameters<typeof it>) => void) {
  if (!backend.openTwins) return () => undefined;
  return isolated ? it.runIf(backend.isolatedTransactions) : it;
}
