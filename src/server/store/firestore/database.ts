/**
 * Firestore through firebase-admin: one app per opened store, and the few primitives every
 * Firestore adapter shares (queued transactions, create()-guards, chunking, sequence keys).
 *
 * The adapters are written so the offline stand-in used by the contract suite
 * (`@firestore-emulator/server`) and real Firestore give the same results (docs/data.md,
 * "Firestore layout"):
 * - a document is always written whole, with the same top-level fields every time, and
 *   anything of variable shape is an array (arrays are replaced whole): the stand-in's plain
 *   `set` keeps top-level fields the new data lacks, real Firestore drops them;
 * - no `FieldValue.delete`, no query cursors or offsets, no nested field paths in queries,
 *   no collection-group queries;
 * - idempotency and exactly-once effects rest on `create()` of a deterministic id (a
 *   "guard"), issued as the first write of its commit: the stand-in applies a commit's writes
 *   one by one and stops at the first failure, so nothing before the guard may matter;
 * - the stand-in does not isolate transactions, so this process queues its own (as the SQLite
 *   adapter does); isolation between processes is real Firestore's.
 */
import { cert, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getFirestore, type Firestore, type Transaction } from 'firebase-admin/firestore';

export interface FirestoreOptions {
  readonly projectId: string;
  /** Service-account JSON: real Firestore. Absent: `emulatorHost` must be set. */
  readonly serviceAccountJson?: string | undefined;
  /** host:port of a Firestore emulator (the Firebase one or the offline stand-in). */
  readonly emulatorHost?: string | undefined;
  /** A named database; `(default)` when absent. */
  readonly databaseId?: string | undefined;
}

let opened = 0;

export interface FirestoreHandle {
  readonly db: Firestore;
  close(): Promise<void>;
}

export function openFirestore(options: FirestoreOptions): FirestoreHandle {
  if (!options.serviceAccountJson && !options.emulatorHost) {
    throw new Error('Firestore needs FIREBASE_SERVICE_ACCOUNT (a real project) or FIRESTORE_EMULATOR_HOST (an emulator)');
  }
  // One app per store: tests open several stores (projects) in one process.
  const app: App = initializeApp(
    options.serviceAccountJson && !options.emulatorHost
      ? { projectId: options.projectId, credential: cert(JSON.parse(options.serviceAccountJson) as object) }
      : { projectId: options.projectId },
    `polyindex-store-${++opened}`,
  );
  const db = options.databaseId ? getFirestore(app, options.databaseId) : getFirestore(app);
  db.settings({
    // JSON drops undefined the same way; the SQLite adapter stores JSON.
    ignoreUndefinedProperties: true,
    // An explicit host with ssl off is how the SDK talks to an emulator ("Bearer owner").
    ...(options.emulatorHost ? { host: options.emulatorHost, ssl: false } : {}),
  });
  return {
    db,
    async close() {
      await db.terminate();
      await deleteApp(app);
    },
  };
}

/** gRPC status of a failed call (ALREADY_EXISTS = 6, NOT_FOUND = 5, ABORTED = 10). */
export const grpcCode = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'number'
    ? (error as { code: number }).code
    : undefined;

export const ALREADY_EXISTS = 6;

const queues = new WeakMap<Firestore, Promise<unknown>>();

/** Runs `work` after every earlier queued call on this database has settled. */
export function queued<T>(db: Firestore, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(db) ?? Promise.resolve();
  const run = previous.then(work, work);
  queues.set(db, run.catch(() => undefined));
  return run;
}

/** How often a transaction whose guard met an existing document is run again. */
const GUARD_RETRIES = 5;
/** How often a transaction that Firestore closed under it is run again. */
const CLOSED_RETRIES = 3;
const INVALID_ARGUMENT = 3;

/**
 * Firestore closed the transaction before it committed, so nothing of it was written: the
 * client retries this itself only as production words it ("transaction has expired"); Google's
 * emulator says "Transaction is invalid or closed" when it drops a transaction that waited too
 * long on another's lock (two processes updating one record, on a busy machine).
 */
export const transactionClosed = (error: unknown): boolean =>
  grpcCode(error) === INVALID_ARGUMENT && /transaction is invalid or closed|transaction has expired/i.test(String((error as { message?: unknown }).message ?? ''));

/**
 * One read-then-write transaction, queued behind this process's others. When a create()
 * guard finds its document already there (another process got there first), or Firestore
 * closed the transaction before it committed, the whole transaction runs again and reads
 * afresh.
 */
export function transact<T>(db: Firestore, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return queued(db, async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await db.runTransaction(work);
      } catch (error) {
        if (grpcCode(error) === ALREADY_EXISTS && attempt < GUARD_RETRIES) continue;
        if (transactionClosed(error) && attempt < CLOSED_RETRIES) continue;
        throw error;
      }
    }
  });
}

/** Creates a document; false when it exists already (nothing written). */
export async function createOnce(db: Firestore, path: string, data: Record<string, unknown>): Promise<boolean> {
  try {
    await db.doc(path).create(data);
    return true;
  } catch (error) {
    if (grpcCode(error) === ALREADY_EXISTS) return false;
    throw error;
  }
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Documents per commit: Firestore's limit is 500 writes; a margin for the summary documents. */
export const DOCS_PER_COMMIT = 400;

let lastSequenceMs = 0;
let sequenceInMs = 0;
/**
 * A key that sorts in creation order: ISO time, then a counter within the millisecond (this
 * process), then a random tail (other processes). Replaces SQLite's rowid for "newest first".
 */
export function sequenceKey(now: number = Date.now()): string {
  if (now > lastSequenceMs) {
    lastSequenceMs = now;
    sequenceInMs = 0;
  } else {
    sequenceInMs++;
  }
  const tail = Math.floor(Math.random() * 36 ** 4).toString(36).padStart(4, '0');
  return `${new Date(lastSequenceMs).toISOString()}#${String(sequenceInMs).padStart(6, '0')}#${tail}`;
}

/** Firestore document ids may not contain `/` and may not be `.` or `..`. */
export function docId(id: string): string {
  if (!id || id.includes('/') || id === '.' || id === '..' || /^__.*__$/.test(id)) throw new RangeError(`not a usable document id: ${JSON.stringify(id)}`);
  return id;
}

/** True when `id` can name a document (a read of an unusable id simply finds nothing). */
export function usableId(id: string): boolean {
  try {
    docId(id);
    return true;
  } catch {
    return false;
  }
}

// One wrapper for both adapters; importers keep reaching it through their database module.
export { notifyingAfter } from '../notifyingAfter.ts';
