/**
 * The audit entry of a SQLite write that the backend-specific parts make (prices, banners,
 * posts), in the caller's transaction so the change and its entry land together. The audit
 * log itself is ../documents/audit.ts over the document driver (table: ./tables.ts).
 */
import type { Transaction } from '@libsql/client';
import type { AuditEntry, NewAuditEntry } from '../audit.ts';
import { tableOf } from './tables.ts';

export async function insertAuditEntry(tx: Transaction, entry: NewAuditEntry): Promise<AuditEntry> {
  const table = tableOf('audit');
  const values = table.valuesOf({ ...entry, id: 0 }).slice(1);
  const result = await tx.execute({ sql: `INSERT INTO ${table.table} (${table.columns.slice(1).join(', ')}) VALUES (${values.map(() => '?').join(', ')}) RETURNING *`, args: values });
  return table.recordOf(result.rows[0]!);
}
