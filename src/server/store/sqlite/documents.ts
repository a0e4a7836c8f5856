/**
 * The SQLite document driver (../documents/driver.ts): one table per kind, as ./tables.ts
 * lays it out.
 *
 * Transactions are `inTransaction` (one writer at a time, BEGIN IMMEDIATE): reads run as they
 * are asked, writes are held and run at the end of the work, creates first, as on Firestore.
 */
import type { Client, InValue, ResultSet, Row, Transaction } from '@libsql/client';
import type { AuditEntry, NewAuditEntry } from '../audit.ts';
import { writeListeners, type DocumentDriver, type DocumentKind, type DocumentReads, type DocumentTransaction, type Filter, type ListOptions } from '../documents/driver.ts';
import { inTransaction } from './database.ts';
import type { PointReader } from './pointReads.ts';
import { sqlValue, tableOf, type SqliteTable } from './tables.ts';

/** Rows per exported page. */
export const SQLITE_EXPORT_PAGE = 1000;
/** Bound parameters per INSERT (SQLite allows 32766 since 3.32; far below it). */
export const PARAMETERS_PER_STATEMENT = 6000;

function where(table: Pick<SqliteTable<never>, 'expression'>, filters: readonly Filter[]): { sql: string; args: InValue[] } {
  if (filters.length === 0) return { sql: '', args: [] };
  return {
    sql: `WHERE ${filters.map((f) => `${table.expression(f.index)} ${f.op ?? '='} ?`).join(' AND ')}`,
    args: filters.map((f) => sqlValue(f.value)),
  };
}

/** Reads on the client or in a transaction; `get` outside one through the point reader when there is one. */
function reads(db: Client | Transaction, pointReader?: PointReader): DocumentReads {
  return {
    async get(kind, key) {
      const table = tableOf(kind);
      // A point reader's row is a plain object of the same columns (recordOf reads them by name).
      const row = pointReader ? (pointReader.get(table.table, table.keyColumn, key) as Row | null) : (await db.execute({ sql: `SELECT * FROM ${table.table} WHERE ${table.keyColumn} = ?`, args: [key] })).rows[0];
      return row ? table.recordOf(row) : null;
    },
    async list(kind, filters, options: ListOptions = {}) {
      const table = tableOf(kind);
      const clause = where(table, filters);
      const page = options.limit !== undefined ? ` LIMIT ${Math.floor(options.limit)} OFFSET ${Math.floor(options.offset ?? 0)}` : '';
      const sql = `SELECT * FROM ${table.table} ${clause.sql} ORDER BY ${table.order} ${options.order === 'desc' ? 'DESC' : 'ASC'}${page}`;
      return (await db.execute({ sql, args: clause.args })).rows.map(table.recordOf);
    },
    async count(kind, filters) {
      const table = tableOf(kind);
      const clause = where(table, filters);
      return Number((await db.execute({ sql: `SELECT COUNT(*) AS n FROM ${table.table} ${clause.sql}`, args: clause.args })).rows[0]?.['n'] ?? 0);
    },
  };
}

const placeholders = (n: number): string => `(${Array.from({ length: n }, () => '?').join(', ')})`;

function upsertSql(table: Pick<SqliteTable<never>, 'table' | 'columns' | 'keyColumn'>, rows: number): string {
  const set = table.columns.filter((c) => c !== table.keyColumn).map((c) => `${c} = excluded.${c}`).join(', ');
  const values = Array.from({ length: rows }, () => placeholders(table.columns.length)).join(', ');
  return `INSERT INTO ${table.table} (${table.columns.join(', ')}) VALUES ${values} ON CONFLICT (${table.keyColumn}) DO ${set ? `UPDATE SET ${set}` : 'NOTHING'}`;
}

/** The audit entry as stored: the actor's e-mail in lower case. */
const auditEntry = (entry: NewAuditEntry, id: number): AuditEntry => ({ ...entry, id, actor: { uid: entry.actor.uid, email: entry.actor.email?.trim().toLowerCase() ?? null } });

/**
 * The driver over `client`. With a point reader (a file database: ./pointReads.ts), `get`
 * outside a transaction reads through it: the same committed rows, at a tenth of the cost.
 */
export function createSqliteDocuments(client: Client, pointReader?: PointReader): DocumentDriver {
  const { onWritten, notify } = writeListeners();

  return {
    ...reads(client, pointReader),

    async transact(work) {
      const touched = new Set<DocumentKind>();
      try {
        return await inTransaction(client, async (sqlTx) => {
          const creates: (() => Promise<unknown>)[] = [];
          const writes: (() => Promise<unknown>)[] = [];
          let audited = false;
          const tx: DocumentTransaction = {
            ...reads(sqlTx),
            put(kind, record) {
              touched.add(kind);
              const table = tableOf(kind);
              writes.push(() => sqlTx.execute({ sql: upsertSql(table, 1), args: table.valuesOf(record) }));
            },
            create(kind, record) {
              touched.add(kind);
              const table = tableOf(kind);
              creates.push(() => sqlTx.execute({ sql: `INSERT INTO ${table.table} (${table.columns.join(', ')}) VALUES ${placeholders(table.columns.length)}`, args: table.valuesOf(record) }));
            },
            delete(kind, key) {
              touched.add(kind);
              const table = tableOf(kind);
              writes.push(() => sqlTx.execute({ sql: `DELETE FROM ${table.table} WHERE ${table.keyColumn} = ?`, args: [key] }));
            },
            async audit(entry) {
              if (audited) throw new Error('one audit entry per transaction');
              audited = true;
              // AUTOINCREMENT's counter: ids are never reused, even after entries were removed.
              const seq = (await sqlTx.execute("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'")).rows[0]?.['seq'];
              const written = auditEntry(entry, Number(seq ?? 0) + 1);
              tx.create('audit', written);
              return written;
            },
          };
          const result = await work(tx);
          for (const write of [...creates, ...writes]) await write();
          return result;
        });
      } finally {
        notify(touched);
      }
    },

    async createOnce(kind, record) {
      const table = tableOf(kind);
      try {
        const result = await inTransaction(client, (tx) =>
          tx.execute({ sql: `INSERT INTO ${table.table} (${table.columns.join(', ')}) VALUES ${placeholders(table.columns.length)} ON CONFLICT (${table.keyColumn}) DO NOTHING`, args: table.valuesOf(record) }),
        );
        return result.rowsAffected === 1;
      } finally {
        notify([kind]);
      }
    },

    onWritten,

    async *exportRecords(kind) {
      // Keyset pages in the kind's order (`WHERE order > last`, never OFFSET).
      const table = tableOf(kind);
      let last: InValue | null = null;
      for (;;) {
        const result: ResultSet = await client.execute({
          sql: `SELECT ${table.order} AS _order, * FROM ${table.table} ${last === null ? '' : `WHERE ${table.order} > ?`} ORDER BY ${table.order} LIMIT ?`,
          args: last === null ? [SQLITE_EXPORT_PAGE] : [last, SQLITE_EXPORT_PAGE],
        });
        if (result.rows.length > 0) yield result.rows.map(table.recordOf);
        if (result.rows.length < SQLITE_EXPORT_PAGE) return;
        last = result.rows[result.rows.length - 1]!['_order'] ?? null;
      }
    },

    async importRecords(kind, records) {
      if (records.length === 0) return 0;
      const table = tableOf(kind);
      const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / table.columns.length));
      try {
        // One transaction: all of it lands, or none of it. An upsert keeps an existing row's rowid.
        await inTransaction(client, async (tx) => {
          for (let i = 0; i < records.length; i += perStatement) {
            const chunk = records.slice(i, i + perStatement);
            await tx.execute({ sql: upsertSql(table, chunk.length), args: chunk.flatMap((record) => table.valuesOf(record)) });
          }
        });
      } finally {
        notify([kind]);
      }
      return records.length;
    },

    async ping() {
      await client.execute('SELECT id FROM schema_migrations LIMIT 1');
    },
  };
}
