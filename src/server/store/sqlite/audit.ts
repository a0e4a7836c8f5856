/** SQLite adapter of the audit log, and the audited user update (record + entry, one transaction). */
import type { Client, InValue, Row, Transaction } from '@libsql/client';
import type { AdminUpdate, AdminUpdateResult, AuditEntry, AuditPage, AuditStore, NewAuditEntry } from '../audit.ts';
import { userTarget } from '../audit.ts';
import { definedFields, type UserRecord } from '../users.ts';
import { inTransaction, notifyingAfter, type Migration } from './database.ts';
import { lookupColumns } from './users.ts';

export const auditMigrations: readonly Migration[] = [
  {
    id: 'audit-001',
    statements: [
      `CREATE TABLE audit_log (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         at TEXT NOT NULL,
         actor_uid TEXT NOT NULL,
         actor_email TEXT,
         action TEXT NOT NULL,
         target TEXT NOT NULL,
         before TEXT CHECK (before IS NULL OR json_valid(before)),
         after TEXT CHECK (after IS NULL OR json_valid(after))
       )`,
      'CREATE INDEX audit_log_target ON audit_log (target, id)',
      'CREATE INDEX audit_log_actor_uid ON audit_log (actor_uid, id)',
      'CREATE INDEX audit_log_actor_email ON audit_log (actor_email, id)',
    ],
  },
];

export const DEFAULT_AUDIT_PAGE_SIZE = 50;
const MAX_AUDIT_PAGE_SIZE = 200;

const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
const parsed = (value: unknown): Record<string, unknown> | null =>
  value === null || value === undefined ? null : (JSON.parse(String(value)) as Record<string, unknown>);

export function entryOf(row: Row): AuditEntry {
  return {
    id: Number(row['id']),
    at: String(row['at']),
    actor: { uid: String(row['actor_uid']), email: row['actor_email'] === null ? null : String(row['actor_email']) },
    action: String(row['action']),
    target: String(row['target']),
    before: parsed(row['before']),
    after: parsed(row['after']),
  };
}

/**
 * Records one entry inside the caller's transaction, so the change and its entry land together.
 * Other adapters' admin writes (prices, banners) call this from their own transactions.
 */
export async function insertAuditEntry(tx: Transaction, entry: NewAuditEntry): Promise<AuditEntry> {
  const result = await tx.execute({
    sql: `INSERT INTO audit_log (at, actor_uid, actor_email, action, target, before, after)
          VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    args: [entry.at, entry.actor.uid, entry.actor.email?.trim().toLowerCase() ?? null, entry.action, entry.target, json(entry.before), json(entry.after)],
  });
  return entryOf(result.rows[0]!);
}

const sameRecord = (a: UserRecord, b: UserRecord): boolean => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => JSON.stringify(a[k] ?? null) === JSON.stringify(b[k] ?? null));
};

/** `usersWritten` is told when an admin change of a user record settles: the record cache. */
export function createSqliteAuditStore(client: Client, usersWritten: () => void = () => undefined): AuditStore {
  const changing = notifyingAfter(usersWritten);
  return {
    async adminUpdateUser<R>({ uid, change, actor, action, now }: AdminUpdate<R>): Promise<AdminUpdateResult<R>> {
      return changing(inTransaction(client, async (tx): Promise<AdminUpdateResult<R>> => {
        const row = (await tx.execute({ sql: 'SELECT record FROM users WHERE uid = ?', args: [uid] })).rows[0];
        if (!row) return { kind: 'not_found' as const };
        const before = JSON.parse(String(row['record'])) as UserRecord;
        const outcome = change(before);
        if (!outcome.ok) return { kind: 'refused' as const, reason: outcome.reason };
        const after: UserRecord = { ...before, ...definedFields(outcome.patch), uid: before.uid };
        if (sameRecord(before, after)) return { kind: 'unchanged' as const, record: before };
        await tx.execute({
          sql: 'UPDATE users SET email = ?, phone = ?, record = ? WHERE uid = ?',
          args: [...lookupColumns(after), JSON.stringify(after), after.uid],
        });
        const entry = await insertAuditEntry(tx, { at: now.toISOString(), actor, action, target: userTarget(uid), before, after });
        return { kind: 'updated' as const, before, after, entry };
      }));
    },

    async listAudit(query = {}): Promise<AuditPage> {
      const pageSize = Math.min(Math.max(1, Math.floor(query.pageSize ?? DEFAULT_AUDIT_PAGE_SIZE)), MAX_AUDIT_PAGE_SIZE);
      const page = Math.max(1, Math.floor(query.page ?? 1));
      const where: string[] = [];
      const args: InValue[] = [];
      if (query.target?.trim()) {
        where.push('target = ?');
        args.push(query.target.trim());
      }
      if (query.actor?.trim()) {
        where.push('(actor_uid = ? OR actor_email = ?)');
        args.push(query.actor.trim(), query.actor.trim().toLowerCase());
      }
      const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const [rows, count] = await Promise.all([
        client.execute({ sql: `SELECT * FROM audit_log ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`, args: [...args, pageSize, (page - 1) * pageSize] }),
        client.execute({ sql: `SELECT COUNT(*) AS n FROM audit_log ${clause}`, args }),
      ]);
      return { entries: rows.rows.map(entryOf), total: Number(count.rows[0]?.['n'] ?? 0), page, pageSize };
    },
  };
}
