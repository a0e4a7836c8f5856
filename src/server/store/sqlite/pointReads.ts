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
import { closeSync, openSync, readSync } from 'node:fs';
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
  /**
   * A number that changes whenever any connection has committed since it was last asked, as
   * `dataVersion()`, but without a statement while nothing was committed: the WAL index's header
   * is compared with the one seen when the number was last taken (see `walIndexHeaderReader`).
   * Synchronous.
   */
  changeMark(): number;
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
 * and holds its index open until close: the index cannot be removed and made anew under it. A
 * read that meets an I/O error (seen twice in the loaded test suite, never reproduced alone)
 * reopens the connection and reads once more, with a warning that names the error; a second
 * failure is thrown. A reopened connection's marks never repeat one given before it.
 */
export function openPointReader(path: string, { busyTimeoutMs = 5_000, open = openLibsql }: { readonly busyTimeoutMs?: number; readonly open?: OpenConnection } = {}): PointReader {
  const connect = () => {
    const db = open(path, { timeout: busyTimeoutMs });
    db.prepare('SELECT count(*) FROM sqlite_schema').raw().get();
    const walMode = String((db.prepare('PRAGMA journal_mode').raw().get() as unknown[] | undefined)?.[0]).toLowerCase() === 'wal';
    return {
      db,
      statements: new Map<string, Database.Statement>(),
      version: db.prepare('PRAGMA data_version').raw(),
      // Opened after the connection holds the index: the file read is the one every writer maps.
      header: walMode ? walIndexHeaderReader(`${path}-shm`) : null,
    };
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
        connection.header?.close();
        connection.db.close();
      } catch {
        // The failed connection may already be unusable; the new one replaces it either way.
      }
      connection = connect();
      reopenedTimes += 1;
      lastMark = null;
      return read();
    }
  };
  const dataVersion = (): number =>
    withRetry('the change mark', () => {
      const value = Number((connection.version.get() as unknown[] | undefined)?.[0]);
      if (!Number.isSafeInteger(value) || value >= MARKS_PER_CONNECTION) throw new Error(`PRAGMA data_version gave ${String(value)}`);
      return reopenedTimes * MARKS_PER_CONNECTION + value;
    });
  /** The WAL index's header read just before `lastMark` was taken by the statement. */
  const lastHeader = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let lastMark: number | null = null;
  return {
    dataVersion,
    changeMark() {
      // Read first, then (when it differs) the statement: a commit between the two changes the
      // header again for the next call, so nothing is ever missed; an equal header proves that
      // no commit happened since the last mark's header was read, so the mark is still true.
      const now = connection.header?.read() ?? null;
      if (now && lastMark !== null && now.equals(lastHeader)) return lastMark;
      const reopenedBefore = reopenedTimes;
      const mark = dataVersion();
      // A header read before a reopen (inside dataVersion) is not the new connection's: keep none.
      if (now && reopenedTimes === reopenedBefore) {
        now.copy(lastHeader);
        lastMark = mark;
      } else lastMark = null;
      return mark;
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
      connection.header?.close();
      connection.db.close();
    },
  };
}

/** One copy of the WAL index header (SQLite's `WalIndexHdr`); the file begins with two. */
export const WAL_INDEX_HEADER_BYTES = 48;

export interface WalIndexHeaderReader {
  /**
   * The header as it is now (a view of a buffer the next read reuses), or null when it cannot be
   * trusted this time (being written: its two copies differ; not yet initialised).
   */
  read(): Buffer | null;
  close(): void;
}

/**
 * The header of a WAL-mode database's index (its `-shm` file), read with one `pread`. SQLite's
 * file format (walformat.html, "The WAL-Index Header") keeps it twice at the start of the file; a
 * writer changes it at every commit (its change counter `iChange`, the last valid frame `mxFrame`,
 * their checksums; and the salts when the WAL starts again after a checkpoint) and writes the
 * second copy first, the first one last, which is how SQLite's own readers know a header is
 * whole: both copies equal. Every connection, in this process or another, maps this same file,
 * so its bytes are every writer's as soon as its commit returns. Null when the file cannot be
 * opened (not in WAL mode, an exclusive-locking connection keeping its index in memory).
 */
export function walIndexHeaderReader(shmPath: string): WalIndexHeaderReader | null {
  let fd: number;
  try {
    fd = openSync(shmPath, 'r');
  } catch {
    return null;
  }
  const both = Buffer.alloc(2 * WAL_INDEX_HEADER_BYTES);
  const first = both.subarray(0, WAL_INDEX_HEADER_BYTES);
  const second = both.subarray(WAL_INDEX_HEADER_BYTES);
  // `isInit` (byte 12) is 1 once a connection has built the index.
  const IS_INIT = 12;
  return {
    read() {
      if (readSync(fd, both, 0, both.length, 0) !== both.length) return null;
      return first[IS_INIT] === 1 && first.equals(second) ? first : null;
    },
    close() {
      closeSync(fd);
    },
  };
}
