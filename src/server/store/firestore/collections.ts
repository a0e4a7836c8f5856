/**
 * How each kind's records are Firestore documents (./documents.ts). By default a record is
 * `{collection}/{key}` with its own fields, its computed indexes (../kinds.ts) and, for a
 * sequenced kind, `_seq`; the kinds below differ, as their documents did before the registry
 * (docs/data.md, "Firestore layout").
 */
import { randomUUID } from 'node:crypto';
import { FieldPath, type DocumentData, type DocumentReference, type DocumentSnapshot, type Firestore, type Transaction } from 'firebase-admin/firestore';
import type { AuditEntry } from '../audit.ts';
import { DELIVERY_LOG_RETENTION_MS, type DeliveryLogRecord } from '../delivery.ts';
import { layoutsBy, type DocumentKind, type Rec } from '../documents/driver.ts';
import { layoutOf, type IndexValue } from '../kinds.ts';
import type { OrderRecord } from '../payments.ts';
import type { UserRecord } from '../users.ts';
import { docId, sequenceKey, transact } from './database.ts';

export interface FirestoreCollection<R> {
  readonly collection: string;
  /** The document id of a key (RangeError for a key no document can have). */
  readonly docId: (key: string | number) => string;
  readonly keyOf: (record: R) => string;
  /** The whole document of a record (`seq`: its place in creation order). */
  readonly docOf: (record: R, seq: string) => Record<string, unknown>;
  readonly recordOf: (data: DocumentData, id: string) => R;
  /** The document field of an index. */
  readonly field: (index: string) => string;
  readonly sequenced: boolean;
  /** What lists and export pages are ordered by: `_seq`, or the key's field. */
  readonly orderField: string;
  /** Writes a changed record read in the same transaction field by field (fields it does not name stay). */
  readonly mergeWrites?: (tx: Transaction, ref: DocumentReference, previous: DocumentSnapshot, record: R) => void;
  /** A document written in the commit of every write of this kind. */
  readonly alsoWrite?: (db: Firestore, writer: { set(ref: DocumentReference, data: DocumentData): unknown }) => void;
  /** Guards created (first in the commit) when a put makes the record so. */
  readonly guards?: (record: R, previous: R | null) => readonly { readonly path: string; readonly data: DocumentData }[];
  /** On import: documents that must agree with the record (`data` null deletes). */
  readonly companions?: (record: R) => readonly { readonly path: string; readonly data: DocumentData | null }[];
  /** The record's own field an index look-up falls back to (documents written by another client). */
  readonly legacyField?: (index: string) => string | undefined;
  readonly afterImport?: (db: Firestore, records: readonly R[]) => Promise<void>;
}

/** Firestore values that JSON cannot hold, made JSON (documents of other clients may carry Timestamps). */
export function plain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plain);
  const toDate = (value as { toDate?: unknown }).toDate;
  if (typeof toDate === 'function') return (toDate.call(value) as Date).toISOString();
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
}

/** The default document of a kind: the record, its computed indexes, `_seq` when sequenced. */
function defaultCollection<K extends DocumentKind>(kind: K): FirestoreCollection<Rec<K>> {
  const layout = layoutOf(kind);
  const computed = Object.entries(layout.indexes ?? {}).filter((entry): entry is [string, (record: Rec<K>) => IndexValue] => entry[1] !== true);
  const hidden = new Set(['_seq', ...computed.map(([name]) => name)]);
  return {
    collection: layout.collection,
    docId: (key) => docId(String(key)),
    keyOf: (record) => String(record[layout.key]),
    docOf: (record, seq) => ({ ...record, ...Object.fromEntries(computed.map(([name, of]) => [name, of(record)])), ...(layout.sequenced ? { _seq: seq } : {}) }),
    recordOf: (data) => {
      const record: Record<string, unknown> = { ...layout.defaults };
      for (const [key, value] of Object.entries(data)) if (!hidden.has(key)) record[key] = plain(value);
      return record as Rec<K>;
    },
    field: (index) => index,
    sequenced: layout.sequenced === true,
    orderField: layout.sequenced ? '_seq' : layout.key,
  };
}

/** The users version: `{ version }`, a token that changes with every user write (../userCache.ts). */
export const USERS_VERSION = 'meta/users';
const USER_HIDDEN = new Set(['_emailKey', '_phoneKey', '_seq']);

export function userRecordOf(data: DocumentData, uid: string): UserRecord {
  const record: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!USER_HIDDEN.has(key)) record[key] = plain(value);
  return { ...record, uid } as UserRecord;
}

/** The stored record already holds `value` under `key` (a missing field is not null). */
const holds = (record: UserRecord, key: string, value: unknown): boolean => Object.hasOwn(record, key) && JSON.stringify(record[key]) === JSON.stringify(value);

const userIndexes = layoutOf('users').indexes!;
const userLookupFields = (user: UserRecord) => ({
  _emailKey: (userIndexes['email'] as (record: UserRecord) => IndexValue)(user),
  _phoneKey: (userIndexes['phone'] as (record: UserRecord) => IndexValue)(user),
});

/**
 * `users/{uid}`: the record's fields as they are (unknown ones included), `_emailKey`,
 * `_phoneKey` (the look-up indexes) and `_seq`. A change writes only the top-level fields that
 * differ (`update`), so every other field stays exactly as stored, a legacy client's
 * Timestamps too; a legacy document also gets its `_seq`. Every write changes `meta/users`.
 */
const users: FirestoreCollection<UserRecord> = {
  ...defaultCollection('users'),
  docOf: (user, seq) => ({ ...user, ...userLookupFields(user), _seq: seq }),
  recordOf: userRecordOf,
  field: (index) => ({ email: '_emailKey', phone: '_phoneKey' })[index] ?? index,
  legacyField: (index) => (index === 'email' || index === 'phone' ? index : undefined),
  mergeWrites(tx, ref, previous, after) {
    const stored = userRecordOf(previous.data()!, previous.id);
    const fields: Record<string, unknown> = { ...userLookupFields(after) };
    for (const [key, value] of Object.entries(after)) if (value !== undefined && !holds(stored, key, value)) fields[key] = value;
    if (previous.get('_seq') == null) fields['_seq'] = sequenceKey();
    const pairs: unknown[] = [];
    for (const [key, value] of Object.entries(fields)) pairs.push(new FieldPath(key), value);
    const [first, firstValue, ...rest] = pairs as [FieldPath, unknown, ...unknown[]];
    tx.update(ref, first, firstValue, ...rest);
  },
  alsoWrite: (db, writer) => {
    // A set of the whole document: the stand-in and Firestore agree on it (docs/data.md).
    writer.set(db.doc(USERS_VERSION), { version: randomUUID() });
  },
};

/** `orders/{id}`, and `paidOrders/{id}`: the guard created by the write that pays the order (exactly once). */
const orders: FirestoreCollection<OrderRecord> = {
  ...defaultCollection('orders'),
  guards: (order, previous) => (order.status === 'paid' && previous?.status !== 'paid' ? [{ path: `paidOrders/${docId(order.id)}`, data: { orderId: order.id, paidAt: order.updatedAt } }] : []),
  // An imported order's guard exists exactly when it is paid: an unpaid one can be paid again, a paid one never twice.
  companions: (order) => [{ path: `paidOrders/${docId(order.id)}`, data: order.status === 'paid' ? { orderId: order.id, paidAt: order.updatedAt } : null }],
};

/** The audit counter: `{ last }`, the highest audit id. */
export const AUDIT_COUNTER = 'meta/audit';
/** `audit/{000000000042}` (ids zero-padded, so ids and names sort alike): the actor as two fields. */
const audit: FirestoreCollection<AuditEntry> = {
  ...defaultCollection('audit'),
  docId: (key) => {
    const id = Number(key);
    if (!Number.isSafeInteger(id) || id < 1) throw new RangeError(`not an audit id: ${String(key)}`);
    return String(id).padStart(12, '0');
  },
  docOf: (entry) => ({
    id: entry.id,
    at: entry.at,
    actorUid: entry.actor.uid,
    actorEmail: entry.actor.email?.trim().toLowerCase() ?? null,
    action: entry.action,
    target: entry.target,
    before: entry.before,
    after: entry.after,
  }),
  recordOf: (data) => ({
    id: Number(data['id']),
    at: String(data['at']),
    actor: { uid: String(data['actorUid']), email: data['actorEmail'] == null ? null : String(data['actorEmail']) },
    action: String(data['action']),
    target: String(data['target']),
    before: (data['before'] ?? null) as AuditEntry['before'],
    after: (data['after'] ?? null) as AuditEntry['after'],
  }),
  // Entries imported with their own ids: later entries continue after the highest.
  async afterImport(db, entries) {
    const highest = Math.max(...entries.map((entry) => entry.id));
    await transact(db, async (tx) => {
      const counter = await tx.get(db.doc(AUDIT_COUNTER));
      if (Number(counter.get('last') ?? 0) < highest) tx.set(db.doc(AUDIT_COUNTER), { last: highest });
    });
  },
};

/**
 * `deliveryLog/{key}`, the key URI-encoded (message ids may hold `/`), with `expireAt` (a
 * Timestamp DELIVERY_LOG_RETENTION_MS after creation) for a TTL policy.
 */
const deliveryLog: FirestoreCollection<DeliveryLogRecord> = {
  ...defaultCollection('deliveryLog'),
  docId: (key) => docId(encodeURIComponent(String(key))),
  docOf: (record) => ({ ...record, expireAt: new Date(Date.parse(record.createdAt) + DELIVERY_LOG_RETENTION_MS) }),
  recordOf: (data) => ({
    key: String(data['key']),
    uid: String(data['uid']),
    kind: data['kind'] as DeliveryLogRecord['kind'],
    ref: String(data['ref']),
    channel: data['channel'] as DeliveryLogRecord['channel'],
    status: data['status'] as DeliveryLogRecord['status'],
    // Records written before creation times and claim tokens existed.
    createdAt: String(data['createdAt'] ?? data['claimedAt']),
    claimedAt: String(data['claimedAt']),
    claimId: (data['claimId'] as string | null | undefined) ?? null,
    sentAt: (data['sentAt'] as string | null | undefined) ?? null,
    payload: (data['payload'] as string | null | undefined) ?? null,
  }),
};

const OWN: { readonly [K in DocumentKind]?: FirestoreCollection<Rec<K>> } = { users, orders, audit, deliveryLog };
const layouts = layoutsBy<FirestoreCollection<never>>(OWN, (kind) => defaultCollection(kind) as unknown as FirestoreCollection<never>);

export const collectionOf = <K extends DocumentKind>(kind: K): FirestoreCollection<Rec<K>> => layouts(kind) as unknown as FirestoreCollection<Rec<K>>;
