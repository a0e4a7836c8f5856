/**
 * What the SQLite adapter answers itself of user records (the rest is ../documents/users.ts):
 * the users version (`users_version`, bumped by triggers on every write of a user row, in the
 * writing transaction, whoever writes: ./tables.ts), the administrator's substring search and
 * the dashboard's facts.
 */
import type { Client } from '@libsql/client';
import type { UserQueries } from '../documents/users.ts';
import type { DocumentDriver } from '../documents/driver.ts';
import { UserRecordCache, type UserCacheOptions } from '../userCache.ts';
import type { UserFacts, UserRecord } from '../users.ts';

/** The cache of user records of one database handle, and what it reads. */
export const sqliteUserCache = (client: Client, docs: DocumentDriver, options?: UserCacheOptions): UserRecordCache =>
  new UserRecordCache(
    {
      async readVersion() {
        const result = await client.execute('SELECT n FROM users_version WHERE id = 1');
        return String(result.rows[0]?.['n'] ?? '');
      },
      readRecord: (uid) => docs.get('users', uid),
    },
    options,
  );

/** A LIKE pattern that matches `text` literally (`%`, `_` and the escape character escaped). */
const likeEscaped = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function sqliteUserQueries(client: Client): UserQueries {
  return {
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
