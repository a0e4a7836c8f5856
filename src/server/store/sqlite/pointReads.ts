/**
 * Point reads of a SQLite file: one record by its key, on a connection of their own, with the
 * statement prepared once per table. `@libsql/client` prepares every statement again and wraps a
 * synchronous call in promises and row objects: a read of one row cost 130–300 µs through it
 * and 20–60 µs here (measured on the 2-core machine, docs/decisions.md "Data feed: speed").
 * The data feed reads a key's record and its owner's at every request, so that a revoked key, a
 * lapsed plan or a removed seat is refused at the next request on every instance; this is what
 * makes that affordable.
 *
 * It is the same library as the client's (`libsql`, the module `@libsql/client` opens files
 * with), so one SQLite runs in the process: two copies on one file would not see each other's
 * POSIX locks. Each read is one statement in autocommit mode: it begins a read transaction, sees
 * every commit made before it (by this process's client or any other process, WAL) and ends it
 * (the statement is reset when its row is read), so the connection never holds a snapshot.
 * Only for `file:` URLs: `:memory:` is another database on another connection, and a libSQL
 * server is reached through the client.
 */
import Database from 'libsql';

type Row = Record<string, unknown>;

export interface PointReader {
  /** The row of `table` whose `keyColumn` is `key`, or null. Synchronous. */
  get(table: string, keyColumn: string, key: string): Row | null;
  /**
   * `PRAGMA data_version` of this connection: it changes when any other connection (this
   * process's client, another process) has committed a change since the last time it was asked.
   * This connection never writes, so every commit to the file changes it. Synchronous.
   */
  dataVersion(): number;
  close(): void;
}

/** The path of a `file:` URL this module can read, or null (`:memory:`, a libSQL server, a URI with parameters). */
export function pointReadPathOf(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  const path = url.slice('file:'.length);
  return path && !path.startsWith(':memory:') && !path.includes('?') && !path.includes('mode=memory') ? path : null;
}

/** A point reader of the SQLite file at `path` (already opened and migrated by the client). */
export function openPointReader(path: string, { busyTimeoutMs = 5_000 }: { readonly busyTimeoutMs?: number } = {}): PointReader {
  const db = new Database(path, { timeout: busyTimeoutMs });
  const statements = new Map<string, ReturnType<typeof db.prepare>>();
  const version = db.prepare('PRAGMA data_version').raw();
  return {
    dataVersion() {
      const value = Number((version.get() as unknown[] | undefined)?.[0]);
      if (!Number.isSafeInteger(value)) throw new Error(`PRAGMA data_version gave ${String(value)}`);
      return value;
    },
    get(table, keyColumn, key) {
      const sql = `SELECT * FROM ${table} WHERE ${keyColumn} = ?`;
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, (statement = db.prepare(sql)));
      return (statement.get(key) as Row | undefined) ?? null;
    },
    close() {
      statements.clear();
      db.close();
    },
  };
}
