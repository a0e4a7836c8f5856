/**
 * The backends the store contract suite runs against. Every `open()` gives a store of its own,
 * with no data shared with any other: a new SQLite file, or a new Firestore project id.
 *
 * - `sqlite`: always (a temp file under the test data dir).
 * - `firestore`: the run's Firestore (tests/setup/firestore.ts): Google's emulator where it is
 *   installed, otherwise the in-memory stand-in.
 *
 * CONTRACT_BACKENDS=sqlite (a comma-separated list) runs only the named backends.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, it } from 'vitest';
import { openFirestoreStore, openStore, sqliteUrlFor, type Store, type StoreCacheOptions } from '../../src/server/store/index.ts';
import { TEST_DATA_DIR } from '../integration/env.ts';
import { freshProjectId as projectIdOf, realFirestore, suiteFirestore } from '../support/firestore.ts';

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
  /** Google's Firestore emulator, not the offline stand-in. */
  readonly realFirestore: boolean;
  /**
   * Transactions are isolated across processes (docs/data.md, "Firestore layout"): SQLite, and
   * Google's emulator. The offline stand-in does not isolate them.
   */
  readonly isolatedTransactions: boolean;
}

/** Demo project ids keep the Firebase emulator from reaching for a real project. */
const freshProjectId = (): string => projectIdOf('contract');

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
    return openFirestoreStore({ projectId: freshProjectId(), emulatorHost: suiteFirestore().host, ...options });
  },
  async openPair(a = {}, b = {}) {
    const options = { projectId: freshProjectId(), emulatorHost: suiteFirestore().host };
    return [await openFirestoreStore({ ...options, ...a }), await openFirestoreStore({ ...options, ...b })] as const;
  },
  async openTwins() {
    const options = { projectId: freshProjectId(), emulatorHost: suiteFirestore().host };
    return [await openFirestoreStore(options), await openFirestoreStore(options)] as const;
  },
  realFirestore: realFirestore(),
  isolatedTransactions: realFirestore(),
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
 * transactions are isolated: SQLite has no twins, so that is Google's emulator (where it is
 * installed, the run uses it), never the offline stand-in.
 */
export function twinTest(backend: Backend, { isolated = false }: { isolated?: boolean } = {}): typeof it | ((...args: Parameters<typeof it>) => void) {
  if (!backend.openTwins) return () => undefined;
  return isolated ? it.runIf(backend.isolatedTransactions) : it;
}
