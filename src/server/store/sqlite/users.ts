/** SQLite adapter of the user store: the whole record as JSON, with indexed look-up columns. */
import type { Client, InValue } from '@libsql/client';
import type { UserKey, UserRecord, UserStore } from '../users.ts';
import { inTransaction, withWriteLock, type Migration } from './database.ts';

export const userMigrations: readonly Migration[] = [
  {
    id: 'users-001',
    statements: [
      `CREATE TABLE users (
         uid TEXT PRIMARY KEY,
         email TEXT,
         phone TEXT,
         record TEXT NOT NULL CHECK (json_valid(record))
       )`,
      'CREATE INDEX users_email ON users (email)',
      'CREATE INDEX users_phone ON users (phone)',
    ],
  },
];

const COLUMN: Record<UserKey, string> = { uid: 'uid', email: 'email', phone: 'phone' };

/** E-mail look-ups ignore case, as Firebase does. */
const normalize = (key: UserKey, value: string): string => (key === 'email' ? value.trim().toLowerCase() : value.trim());

const lookupColumns = (record: UserRecord): InValue[] => [
  record.email ? normalize('email', record.email) : null,
  record.phone ? normalize('phone', record.phone) : null,
];

export function createSqliteUserStore(client: Client): UserStore {
  return {
    async createUser(record) {
      const result = await withWriteLock(client, () =>
        client.execute({
          sql: 'INSERT INTO users (uid, email, phone, record) VALUES (?, ?, ?, ?) ON CONFLICT (uid) DO NOTHING',
          args: [record.uid, ...lookupColumns(record), JSON.stringify(record)],
        }),
      );
      return result.rowsAffected === 1;
    },

    async findUserBy(key, value) {
      if (!value || !value.trim()) return null;
      const result = await client.execute({
        sql: `SELECT record FROM users WHERE ${COLUMN[key]} = ? ORDER BY rowid LIMIT 1`,
        args: [normalize(key, value)],
      });
      const row = result.rows[0];
      return row ? (JSON.parse(String(row['record'])) as UserRecord) : null;
    },

    async updateUsersBy(key, value, patch) {
      if (!value.trim()) return 0;
      return inTransaction(client, async (tx) => {
        const rows = await tx.execute({
          sql: `SELECT uid, record FROM users WHERE ${COLUMN[key]} = ?`,
          args: [normalize(key, value)],
        });
        for (const row of rows.rows) {
          // uid is the identity: a patch may not move a record to another user.
          const merged: UserRecord = { ...(JSON.parse(String(row['record'])) as UserRecord), ...patch, uid: String(row['uid']) };
          await tx.execute({
            sql: 'UPDATE users SET email = ?, phone = ?, record = ? WHERE uid = ?',
            args: [...lookupColumns(merged), JSON.stringify(merged), merged.uid],
          });
        }
        return rows.rows.length;
      });
    },
  };
}
