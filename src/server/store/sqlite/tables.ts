/**
 * How each kind's records are SQLite rows (the driver is ./documents.ts). A kind's table is,
 * by default, `key` (primary key), one column per index (snake case) and `record`, the whole
 * record as JSON; such a table is made from the registry (../kinds.ts) by the migration
 * `documents-{table}-001`, so a new kind needs nothing here. The kinds that predate the
 * registry keep the tables their migrations made (ids unchanged, so a database written before
 * the registry opens as it was), some with a column per field.
 */
import type { InValue, Row } from '@libsql/client';
import type { AuditEntry } from '../audit.ts';
import type { DeliveryLogRecord } from '../delivery.ts';
import { layoutsBy, type DocumentKind, type IndexValue, type Rec } from '../documents/driver.ts';
import { isDocumentKind, layoutOf, TRANSFER_KINDS } from '../kinds.ts';
import type { OrderRecord, PaymentEventRecord } from '../payments.ts';
import { viewNameKey, type SavedView } from '../savedViews.ts';
import type { Migration } from './database.ts';

/** How one kind's records are rows. */
export interface SqliteTable<R> {
  readonly table: string;
  /** The primary-key column (the registry's key). */
  readonly keyColumn: string;
  /** Column list of an insert, and each record's values in that order. */
  readonly columns: readonly string[];
  readonly valuesOf: (record: R) => InValue[];
  readonly recordOf: (row: Row) => R;
  /** The SQL of a filter's index (or field). */
  readonly expression: (index: string) => string;
  /** Creation (or key) order. */
  readonly order: string;
}

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export const sqlValue = (value: IndexValue | undefined): InValue => (typeof value === 'boolean' ? (value ? 1 : 0) : (value ?? null));

/** The table of a kind with no columns of its own: key, index columns, the record as JSON. */
function jsonTable<K extends DocumentKind>(kind: K): SqliteTable<Rec<K>> {
  const layout = layoutOf(kind);
  const indexes = Object.entries(layout.indexes ?? {}).filter(([name]) => name !== layout.key);
  return {
    table: layout.table,
    keyColumn: snake(layout.key),
    columns: [snake(layout.key), ...indexes.map(([name]) => snake(name)), 'record'],
    valuesOf: (record) => [
      sqlValue(record[layout.key] as IndexValue),
      ...indexes.map(([name, of]) => sqlValue(of === true ? (record[name as keyof Rec<K>] as IndexValue) : of(record))),
      JSON.stringify(record),
    ],
    recordOf: (row) => ({ ...layout.defaults, ...(JSON.parse(String(row['record'])) as Rec<K>) }),
    expression: (index) => (index === layout.key || indexes.some(([name]) => name === index) ? snake(index) : `json_extract(record, '$.${index.replace(/[^A-Za-z0-9_]/g, '')}')`),
    order: layout.sequenced ? 'rowid' : snake(layout.key),
  };
}


/** The tables of kinds added through the registry (the others have their own migrations). */
export function documentMigrations(): Migration[] {
  return TRANSFER_KINDS.filter(isDocumentKind)
    .filter((kind) => !MIGRATED_TABLES.has(layoutOf(kind).table))
    .map((kind) => {
      const layout = layoutOf(kind);
      const key = snake(layout.key);
      const indexes = Object.keys(layout.indexes ?? {}).filter((name) => name !== layout.key).map(snake);
      return {
        id: `documents-${layout.table}-001`,
        statements: [
          `CREATE TABLE ${layout.table} (${[`${key} PRIMARY KEY`, ...indexes, 'record TEXT NOT NULL CHECK (json_valid(record))'].join(', ')})`,
          ...indexes.map((column) => `CREATE INDEX ${layout.table}_${column} ON ${layout.table} (${column})`),
        ],
      };
    });
}

export const recordMigrations: readonly Migration[] = [
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
    // The users version: bumped by triggers in the writing transaction, whoever writes
    // (../userCache.ts: other processes' record caches check it).
    id: 'users-002',
    statements: [
      'CREATE TABLE users_version (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)',
      'INSERT INTO users_version (id, n) VALUES (1, 0)',
      ...['INSERT', 'UPDATE', 'DELETE'].map(
        (event) => `CREATE TRIGGER users_version_${event.toLowerCase()} AFTER ${event} ON users BEGIN UPDATE users_version SET n = n + 1 WHERE id = 1; END`,
      ),
    ],
  },
  {
    id: 'payments-001',
    statements: [
      `CREATE TABLE orders (
         id TEXT PRIMARY KEY,
         uid TEXT NOT NULL,
         plan TEXT NOT NULL,
         amount INTEGER NOT NULL CHECK (amount > 0),
         currency TEXT NOT NULL,
         receipt TEXT NOT NULL,
         status TEXT NOT NULL CHECK (status IN ('created', 'paid', 'failed')),
         payment_id TEXT,
         signature TEXT,
         failure_reason TEXT,
         created_at TEXT NOT NULL,
         updated_at TEXT NOT NULL
       )`,
      'CREATE INDEX orders_uid ON orders (uid)',
      `CREATE TABLE payment_events (
         id TEXT PRIMARY KEY,
         type TEXT NOT NULL,
         received_at TEXT NOT NULL
       )`,
    ],
  },
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
  {
    id: 'delivery-001',
    statements: [
      `CREATE TABLE delivery_settings (
         uid TEXT PRIMARY KEY,
         active INTEGER NOT NULL,
         record TEXT NOT NULL CHECK (json_valid(record))
       )`,
      'CREATE INDEX delivery_settings_active ON delivery_settings (active)',
      `CREATE TABLE alerts (
         id TEXT PRIMARY KEY,
         uid TEXT NOT NULL,
         instrument TEXT NOT NULL,
         record TEXT NOT NULL CHECK (json_valid(record))
       )`,
      'CREATE INDEX alerts_uid ON alerts (uid)',
      'CREATE INDEX alerts_instrument ON alerts (instrument)',
      `CREATE TABLE whatsapp_contacts (
         number TEXT PRIMARY KEY,
         uid TEXT,
         record TEXT NOT NULL CHECK (json_valid(record))
       )`,
      'CREATE INDEX whatsapp_contacts_uid ON whatsapp_contacts (uid)',
      `CREATE TABLE delivery_log (
         key TEXT PRIMARY KEY,
         uid TEXT NOT NULL,
         kind TEXT NOT NULL,
         ref TEXT NOT NULL,
         channel TEXT NOT NULL,
         status TEXT NOT NULL CHECK (status IN ('claimed', 'sent')),
         claimed_at TEXT NOT NULL,
         sent_at TEXT
       )`,
      'CREATE INDEX delivery_log_uid ON delivery_log (uid)',
    ],
  },
  {
    // Pending and dropped records (alert retries), the claim's owner token, the creation time
    // (retries and pruning count from it) and a payload. SQLite cannot change a CHECK: the table is rebuilt.
    id: 'delivery-002',
    statements: [
      `CREATE TABLE delivery_log_next (
         key TEXT PRIMARY KEY,
         uid TEXT NOT NULL,
         kind TEXT NOT NULL,
         ref TEXT NOT NULL,
         channel TEXT NOT NULL,
         status TEXT NOT NULL CHECK (status IN ('pending', 'claimed', 'sent', 'dropped')),
         created_at TEXT NOT NULL,
         claimed_at TEXT NOT NULL,
         claim_id TEXT,
         sent_at TEXT,
         payload TEXT
       )`,
      `INSERT INTO delivery_log_next (key, uid, kind, ref, channel, status, created_at, claimed_at, claim_id, sent_at, payload)
         SELECT key, uid, kind, ref, channel, status, claimed_at, claimed_at, NULL, sent_at, NULL FROM delivery_log`,
      'DROP TABLE delivery_log',
      'ALTER TABLE delivery_log_next RENAME TO delivery_log',
      'CREATE INDEX delivery_log_uid ON delivery_log (uid)',
      'CREATE INDEX delivery_log_unsent ON delivery_log (status, kind)',
      'CREATE INDEX delivery_log_created ON delivery_log (created_at)',
    ],
  },
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

/** The tables the migrations above create (the driver makes no other table for them). */
export const MIGRATED_TABLES: ReadonlySet<string> = new Set(['users', 'orders', 'payment_events', 'audit_log', 'delivery_settings', 'alerts', 'whatsapp_contacts', 'delivery_log', 'saved_views']);

type Column = 'text' | 'nullable' | 'number' | 'json';
const fromColumn = (type: Column, value: unknown): unknown => {
  if (type === 'number') return Number(value);
  if (value === null || value === undefined) return type === 'text' ? '' : null;
  return type === 'json' ? JSON.parse(String(value)) : String(value);
};
const toColumn = (type: Column, value: unknown): InValue => (type === 'json' ? (value === null || value === undefined ? null : JSON.stringify(value)) : ((value ?? null) as InValue));

/** A table with a column per record field (snake case), plus computed columns. */
function columnTable<R>(table: string, key: keyof R & string, fields: { readonly [F in keyof R & string]?: Column }, computed: Readonly<Record<string, (record: R) => InValue>> = {}, order: string = snake(key)): SqliteTable<R> {
  const typed = Object.entries(fields) as [keyof R & string, Column][];
  const names = [...typed.map(([field]) => field as string), ...Object.keys(computed)];
  return {
    table,
    keyColumn: snake(key),
    columns: names.map(snake),
    valuesOf: (record) => [...typed.map(([field, type]) => toColumn(type, record[field])), ...Object.values(computed).map((of) => of(record))],
    recordOf: (row: Row) => Object.fromEntries(typed.map(([field, type]) => [field, fromColumn(type, row[snake(field)])])) as R,
    expression: (index) => (names.includes(index) ? snake(index) : index),
    order,
  };
}

const orders = columnTable<OrderRecord>('orders', 'id', {
  id: 'text', uid: 'text', plan: 'text', amount: 'number', currency: 'text', receipt: 'text', status: 'text',
  paymentId: 'nullable', signature: 'nullable', failureReason: 'nullable', createdAt: 'text', updatedAt: 'text',
}, {}, 'rowid');

const paymentEvents = columnTable<PaymentEventRecord>('payment_events', 'id', { id: 'text', type: 'text', receivedAt: 'text' });

const savedViews = columnTable<SavedView>('saved_views', 'id', { id: 'text', uid: 'text', name: 'text', query: 'text', createdAt: 'text', updatedAt: 'text' }, { nameKey: (view) => viewNameKey(view.name) });

const deliveryLog = columnTable<DeliveryLogRecord>('delivery_log', 'key', {
  key: 'text', uid: 'text', kind: 'text', ref: 'text', channel: 'text', status: 'text',
  createdAt: 'text', claimedAt: 'text', claimId: 'nullable', sentAt: 'nullable', payload: 'nullable',
});

/** Audit entries: the actor as two columns (filters on either), before and after as JSON. */
const audit: SqliteTable<AuditEntry> = {
  table: 'audit_log',
  keyColumn: 'id',
  columns: ['id', 'at', 'actor_uid', 'actor_email', 'action', 'target', 'before', 'after'],
  valuesOf: (e) => [e.id, e.at, e.actor.uid, e.actor.email?.trim().toLowerCase() ?? null, e.action, e.target, toColumn('json', e.before), toColumn('json', e.after)],
  recordOf: (row) => ({
    id: Number(row['id']),
    at: String(row['at']),
    actor: { uid: String(row['actor_uid']), email: row['actor_email'] === null ? null : String(row['actor_email']) },
    action: String(row['action']),
    target: String(row['target']),
    before: fromColumn('json', row['before']) as AuditEntry['before'],
    after: fromColumn('json', row['after']) as AuditEntry['after'],
  }),
  expression: (index) => ({ actorUid: 'actor_uid', actorEmail: 'actor_email', target: 'target', id: 'id' })[index] ?? index,
  order: 'id',
};

/** Kinds whose table is not `key, indexes…, record`. */
export const LEGACY_TABLES: { readonly [K in DocumentKind]?: SqliteTable<Rec<K>> } = { orders, paymentEvents, savedViews, deliveryLog, audit };

/** How a kind's records are rows: its own table above, or the default. */
const tables = layoutsBy<SqliteTable<never>>(LEGACY_TABLES, (kind) => jsonTable(kind) as unknown as SqliteTable<never>);

export const tableOf = <K extends DocumentKind>(kind: K): SqliteTable<Rec<K>> => tables(kind) as unknown as SqliteTable<Rec<K>>;
