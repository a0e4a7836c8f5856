/**
 * The embedded SQLite database (a file under DATA_DIR), or a libSQL server when given a
 * `libsql://` URL: one client, numbered migrations per domain, transactions for every write
 * that touches more than one row.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createClient, type Client, type Transaction } from '@libsql/client';

export interface Migration {
  /** Unique across domains, e.g. `users-001`; applied once, in the order given. */
  readonly id: string;
  readonly statements: readonly string[];
}

export interface SqliteOptions {
  /** `file:/abs/path.db`, `libsql://…` or `:memory:`. */
  readonly url: string;
  readonly authToken?: string | undefined;
}

export async function openSqlite({ url, authToken }: SqliteOptions): Promise<Client> {
  if (url.startsWith('file:')) mkdirSync(dirname(url.slice('file:'.length)), { recursive: true });
  // `timeout` is the busy timeout of every pooled connection, including the ones a
  // transaction() opens (the PRAGMA below only reaches the first connection).
  const timeout = url.startsWith('file:') ? { timeout: 5_000 } : {};
  const client = createClient(authToken ? { url, authToken, ...timeout } : { url, ...timeout });
  if (url.startsWith('file:')) {
    // WAL lets readers proceed during a write; the timeout makes concurrent writers wait, not fail.
    await client.execute('PRAGMA journal_mode = WAL');
    await client.execute('PRAGMA busy_timeout = 5000');
  }
  await client.execute('PRAGMA foreign_keys = ON');
  return client;
}

export async function migrate(client: Client, migrations: readonly Migration[]): Promise<void> {
  await client.execute(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    (await client.execute('SELECT id FROM schema_migrations')).rows.map((row) => String(row['id'])),
  );
  for (const migration of migrations) {
    if (applied.has(migration.id)) continue;
    await client.batch(
      [
        ...migration.statements.map((sql) => ({ sql, args: [] })),
        { sql: 'INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)', args: [migration.id, new Date().toISOString()] },
      ],
      'write',
    );
  }
}

/**
 * Writers of one client, in turn. The local SQLite driver is synchronous: a second connection
 * that meets a held write lock busy-waits on the event loop, so the first transaction can never
 * finish (a deadlock until the busy timeout). Queuing writers in-process avoids that; the busy
 * timeout remains for other processes on the same file.
 */
const writeQueues = new WeakMap<Client, Promise<unknown>>();

export function withWriteLock<T>(client: Client, work: () => Promise<T>): Promise<T> {
  const previous = writeQueues.get(client) ?? Promise.resolve();
  const run = previous.then(work, work);
  writeQueues.set(client, run.catch(() => undefined));
  return run;
}

/** Runs `work` in one write transaction: all of it lands, or none of it. */
export async function inTransaction<T>(client: Client, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return withWriteLock(client, async () => {
    const tx = await client.transaction('write');
    try {
      const result = await work(tx);
      await tx.commit();
      return result;
    } catch (error) {
      await tx.rollback();
      throw error;
    } finally {
      tx.close();
    }
  });
}

// One wrapper for both adapters; importers keep reaching it through their database module.
export { notifyingAfter } from '../notifyingAfter.ts';
