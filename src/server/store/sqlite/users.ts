/**
 * SQLite adapter of the user store: the whole record as JSON, with indexed look-up columns. The
 * users version (`users_version`, migration users-002) is bumped by triggers on every insert,
 * update and delete of a user row, in the writing transaction, whoever writes: the record
 * caches of other processes on the same database check it (../userCache.ts).
 */
import type { Client, InValue } from '@libsql/client';
import { UserRecordCache, type UserCacheOptions } from '../userCache.ts';
import { definedFields, type UserFacts, type UserKey, type UserRecord, type UserStore } from '../users.ts';
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
  {
    id: 'users-002',
    statements: [
      'CREATE TABLE users_version (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)',
      'INSERT INTO users_version (id, n) VALUES (1, 0)',
      ...['INSERT', 'UPDATE', 'DELETE'].map(
        (event) => `CREATE TRIGGER users_version_${event.toLowerCase()} AFTER ${event} ON users BEGIN UPDATE users_version SET n = n + 1 WHERE id = 1; END`,
      ),
    ],
  },
];

/** The cache of user records of one database handle, and what it reads. */
export const sqliteUserCache = (client: Client, options?: UserCacheOptions): UserRecordCache =>
  new UserRecordCache(
    {
      async readVersion() {
        const result = await client.execute('SELECT n FROM users_version WHERE id = 1');
        return String(result.rows[0]?.['n'] ?? '');
      },
      readRecord: (uid) => findByUid(client, uid),
    },
    options,
  );

async function findByUid(client: Client, uid: string): Promise<UserRecord | null> {
  const result = await client.execute({ sql: 'SELECT record FROM users WHERE uid = ?', args: [uid] });
  const row = result.rows[0];
  return row ? (JSON.parse(String(row['record'])) as UserRecord) : null;
}

const COLUMN: Record<UserKey, string> = { uid: 'uid', email: 'email', phone: 'phone' };

/** E-mail look-ups ignore case, as Firebase does. */
const normalize = (key: UserKey, value: string): string => (key === 'email' ? value.trim().toLowerCase() : value.trim());

/** The indexed look-up columns of a record (normalized e-mail and phone). */
export const lookupColumns = (record: UserRecord): InValue[] => [
  record.email ? normalize('email', record.email) : null,
  record.phone ? normalize('phone', record.phone) : null,
];

/** A LIKE pattern that matches `text` literally (`%`, `_` and the escape character escaped). */
const likeEscaped = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `cache` is told of every user write made here (so are the payment, audit and transfer parts). */
export function createSqliteUserStore(client: Client, cache: UserRecordCache = sqliteUserCache(client)): UserStore {
  return {
    async createUser(record) {
      const result = await cache.after(
        withWriteLock(client, () =>
          client.execute({
            sql: 'INSERT INTO users (uid, email, phone, record) VALUES (?, ?, ?, ?) ON CONFLICT (uid) DO NOTHING',
            args: [record.uid, ...lookupColumns(record), JSON.stringify(record)],
          }),
        ),
      );
      return result.rowsAffected === 1;
    },

    async cachedUser(uid, options) {
      const key = uid.trim();
      return key ? cache.get(key, options) : null;
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
      return cache.after(inTransaction(client, async (tx) => {
        const rows = await tx.execute({
          sql: `SELECT uid, record FROM users WHERE ${COLUMN[key]} = ?`,
          args: [normalize(key, value)],
        });
        for (const row of rows.rows) {
          // uid is the identity: a patch may not move a record to another user.
          const merged: UserRecord = { ...(JSON.parse(String(row['record'])) as UserRecord), ...definedFields(patch), uid: String(row['uid']) };
          await tx.execute({
            sql: 'UPDATE users SET email = ?, phone = ?, record = ? WHERE uid = ?',
            args: [...lookupColumns(merged), JSON.stringify(merged), merged.uid],
          });
        }
        return rows.rows.length;
      }));
    },

    async searchUsers(query, limit) {
      const size = Math.min(Math.max(1, Math.floor(limit)), 200);
      const q = query.trim();
      const result = q
        ? await client.execute({
            sql: `SELECT record FROM users WHERE uid = ? OR email LIKE ? ESCAPE '\\' OR phone LIKE ? ESCAPE '\\'
                  ORDER BY rowid DESC LIMIT ?`,
            args: [q, `%${likeEscaped(q.toLowerCase())}%`, `%${likeEscaped(q.replace(/[\s-]/g, ''))}%`, size],
          })
        : await client.execute({ sql: 'SELECT record FROM users ORDER BY rowid DESC LIMIT ?', args: [size] });
      return result.rows.map((row) => JSON.parse(String(row['record'])) as UserRecord);
    },

    async listUserFacts() {
      const result = await client.execute(
        `SELECT uid, json_extract(record, '$.role') AS role, json_extract(record, '$.subscribed') AS subscribed,
                json_extract(record, '$.plan') AS plan, json_extract(record, '$.createdAt') AS created_at,
                json_extract(record, '$.expiresAt') AS expires_at
           FROM users`,
      );
      return result.rows.map((row): UserFacts => ({
        uid: String(row['uid']),
        record: {
          role: row['role'] === null ? 'user' : String(row['role']),
          // json_extract gives SQLite's 1/0 for JSON true/false.
          subscribed: Number(row['subscribed']) === 1,
          plan: row['plan'] === null ? null : String(row['plan']),
          createdAt: row['created_at'] === null ? '' : String(row['created_at']),
          expiresAt: row['expires_at'] === null ? null : String(row['expires_at']),
        },
      }));
    },
  };
}
