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

/** What opens a connection: libSQL's, or a test's wrapper around it. */
export type OpenConnection = (path: string, options: { timeout: number }) => Database.Database;

const openLibsql: OpenConnection = (path, options) => new Database(path, options);

/** SQLite's I/O error family (`SQLITE_IOERR`, `SQLITE_IOERR_SHORT_READ` …), by the code libSQL gives. */
const isIoError = (error: unknown): boolean => typeof (error as { code?: unknown } | null)?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_IOERR');

/**
 * A point reader of the SQLite file at `path` (already opened and migrated by the client).
 *
 * The connection reads the schema as it opens, so it takes part in the file's WAL from the start
 * (a connection that has not read yet opens the WAL at its first statement). A point read that
 * meets an I/O error (seen twice in the loaded test suite, never reproduced alone) reopens the
 * connection and reads once more, with a warning that names the error; a second failure is
 * thrown. The change mark of a reopened connection never repeats one given before it.
 */
export function openPointReader(path: string, { busyTimeoutMs = 5_000, open = openLibsql }: { readonly busyTimeoutMs?: number; readonly open?: OpenConnection } = {}): PointReader {
  const connect = () => {
    const db = open(path, { timeout: busyTimeoutMs });
    db.prepare('SELECT count(*) FROM sqlite_schema').raw().get();
    return { db, statements: new Map<string, Database.Statement>(), version: db.prepare('PRAGMA data_version').raw() };
  };
  let connection = connect();
  // data_version numbers are per connection: a reopened one starts again, so its marks are
  // moved past every mark given before (a repeated mark would keep stale key facts).
  let reopenedTimes = 0;
  const MARKS_PER_CONNECTION = 2 ** 32;
  const withRetry = <T>(what: string, read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (!isIoError(error)) throw error;
      console.warn(`[store] a point read (${what}) met ${(error as { code: string }).code}: ${(error as Error).message}; reading again on a new connection`);
      try {
        connection.db.close();
      } catch {
        // The failed connection may already be unusable; the new one replaces it either way.
      }
      connection = connect();
      reopenedTimes += 1;
      return read();
    }
  };
  return {
    dataVersion() {
      return withRetry('the change mark', () => {
        const value = Number((connection.version.get() as unknown[] | undefined)?.[0]);
        if (!Number.isSafeInteger(value) || value >= MARKS_PER_CONNECTION) throw new Error(`PRAGMA data_version gave ${String(value)}`);
        return reopenedTimes * MARKS_PER_CONNECTION + value;
      });
    },
    get(table, keyColumn, key) {
      const sql = `SELECT * FROM ${table} WHERE ${keyColumn} = ?`;
      return withRetry(table, () => {
        let statement = connection.statements.get(sql);
        if (!statement) connection.statements.set(sql, (statement = connection.db.prepare(sql)));
        return (statement.get(key) as Row | undefined) ?? null;
      });
    },
    close() {
      connection.statements.clear();
      connection.db.close();
    },
  };
}
