/** SQLite adapter of saved comparison views (see ../savedViews.ts): one row per view, unique by (uid, name key). */
import type { Client, Row } from '@libsql/client';
import { byName, checkSavedView, MAX_SAVED_VIEWS, savedRecord, viewNameKey, type SavedView, type SavedViewStore } from '../savedViews.ts';
import { inTransaction, type Migration } from './database.ts';

export const savedViewMigrations: readonly Migration[] = [
  {
    id: 'views-001',
    statements: [
      `CREATE TABLE saved_views (
         id TEXT PRIMARY KEY,
         uid TEXT NOT NULL,
         name TEXT NOT NULL,
         name_key TEXT NOT NULL,
         query TEXT NOT NULL,
         created_at TEXT NOT NULL,
         updated_at TEXT NOT NULL,
         UNIQUE (uid, name_key)
       )`,
    ],
  },
];

export const toSavedView = (row: Row): SavedView => ({
  id: String(row['id']),
  uid: String(row['uid']),
  name: String(row['name']),
  query: String(row['query']),
  createdAt: String(row['created_at']),
  updatedAt: String(row['updated_at']),
});

export function createSqliteSavedViewStore(client: Client): SavedViewStore {
  return {
    async listSavedViews(uid) {
      const result = await client.execute({ sql: 'SELECT * FROM saved_views WHERE uid = ?', args: [uid] });
      return result.rows.map(toSavedView).toSorted(byName);
    },

    saveView(input) {
      checkSavedView(input);
      return inTransaction(client, async (tx) => {
        const found = await tx.execute({ sql: 'SELECT * FROM saved_views WHERE uid = ? AND name_key = ?', args: [input.uid, viewNameKey(input.name)] });
        const existing = found.rows[0] ? toSavedView(found.rows[0]) : null;
        if (!existing) {
          const count = await tx.execute({ sql: 'SELECT COUNT(*) AS n FROM saved_views WHERE uid = ?', args: [input.uid] });
          if (Number(count.rows[0]?.['n'] ?? 0) >= MAX_SAVED_VIEWS) return { kind: 'limit' as const };
        }
        const view = savedRecord(existing, input);
        await tx.execute({
          sql: `INSERT INTO saved_views (id, uid, name, name_key, query, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, query = excluded.query, updated_at = excluded.updated_at`,
          args: [view.id, view.uid, view.name, viewNameKey(view.name), view.query, view.createdAt, view.updatedAt],
        });
        return { kind: existing ? ('replaced' as const) : ('created' as const), view };
      });
    },

    async deleteSavedView(uid, id) {
      return inTransaction(client, async (tx) => {
        const result = await tx.execute({ sql: 'DELETE FROM saved_views WHERE uid = ? AND id = ?', args: [uid, id] });
        return result.rowsAffected > 0;
      });
    },
  };
}
