/**
 * Firestore adapter of the user store: `users/{uid}` documents holding the record in the
 * spec's field names, plus three look-up fields of ours (`_emailKey`: trimmed lower-case
 * e-mail, `_phoneKey`: trimmed phone, `_seq`: creation order). They are stripped on read.
 * Updates write the record's top-level fields one by one (`update`), so fields a patch does
 * not name — unknown ones included — stay as they are, exactly as the SQLite adapter merges.
 *
 * Every user write also writes `meta/users` (the users version, a new random token) in the same
 * commit: the record caches of other instances check it (../userCache.ts). Writers: `createUser`
 * and `writeUserChanges` here (every transactional user write goes through it), the transfer import.
 */
import { randomUUID } from 'node:crypto';
import { FieldPath, type DocumentData, type DocumentReference, type DocumentSnapshot, type Firestore, type Query, type QueryDocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { UserRecordCache, type UserCacheOptions } from '../userCache.ts';
import { definedFields, type UserFacts, type UserKey, type UserRecord, type UserStore } from '../users.ts';
import { ALREADY_EXISTS, docId, grpcCode, sequenceKey, transact, usableId } from './database.ts';

export const USERS = 'users';
/** The users version: `{ version }`, a token that changes with every user write. */
export const USERS_VERSION = 'meta/users';

/** Changes the users version in the commit of `writer` (a transaction or a batch). */
export function bumpUsersVersion(db: Firestore, writer: { set(ref: DocumentReference, data: DocumentData): unknown }): void {
  // A set of the whole document: the stand-in and Firestore agree on it (docs/data.md).
  writer.set(db.doc(USERS_VERSION), { version: randomUUID() });
}

/** The cache of user records of one Firestore handle, and what it reads. */
export const firestoreUserCache = (db: Firestore, options?: UserCacheOptions): UserRecordCache =>
  new UserRecordCache(
    {
      async readVersion() {
        const snapshot = await db.doc(USERS_VERSION).get();
        return snapshot.exists ? String(snapshot.get('version')) : '';
      },
      async readRecord(uid) {
        if (!usableId(uid)) return null;
        const snapshot = await db.collection(USERS).doc(uid).get();
        return snapshot.exists ? userRecordOf(snapshot.data()!, snapshot.id) : null;
      },
    },
    options,
  );
const HIDDEN = ['_emailKey', '_phoneKey', '_seq'] as const;

const normalize = (key: UserKey, value: string): string => (key === 'email' ? value.trim().toLowerCase() : value.trim());

const lookupFields = (record: UserRecord): Record<string, string | null> => ({
  _emailKey: record.email ? normalize('email', record.email) : null,
  _phoneKey: record.phone ? normalize('phone', record.phone) : null,
});

/** Firestore values that JSON cannot hold, made JSON (legacy documents may carry Timestamps). */
function plain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plain);
  const toDate = (value as { toDate?: unknown }).toDate;
  if (typeof toDate === 'function') return (toDate.call(value) as Date).toISOString();
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
}

export function userRecordOf(data: DocumentData, uid: string): UserRecord {
  const record: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!(HIDDEN as readonly string[]).includes(key)) record[key] = plain(value);
  return { ...record, uid } as UserRecord;
}

/** A user record as read in a transaction, with what its document lacks of ours. */
export interface StoredUser {
  readonly record: UserRecord;
  /** A legacy document (written by another client) has no `_seq` until we write it. */
  readonly hasSeq: boolean;
}

export const storedUserOf = (snapshot: DocumentSnapshot): StoredUser => ({
  record: userRecordOf(snapshot.data()!, snapshot.id),
  hasSeq: snapshot.get('_seq') != null,
});

export async function readUserIn(db: Firestore, tx: Transaction, uid: string): Promise<StoredUser | null> {
  if (!usableId(uid)) return null;
  const snapshot = await tx.get(db.collection(USERS).doc(uid));
  return snapshot.exists ? storedUserOf(snapshot) : null;
}

/** The stored record already holds `value` under `key` (a missing field is not null). */
const holds = (record: UserRecord, key: string, value: unknown): boolean => Object.hasOwn(record, key) && JSON.stringify(record[key]) === JSON.stringify(value);

/**
 * Writes the top-level fields in which `after` differs from the stored record, and the
 * look-up fields; every other field stays exactly as stored (a legacy client's Timestamps
 * too, which a read shows as ISO text). A legacy document also gets its `_seq`.
 */
export function writeUserChanges(db: Firestore, tx: Transaction, stored: StoredUser, after: UserRecord): void {
  const fields: Record<string, unknown> = { ...lookupFields(after) };
  for (const [key, value] of Object.entries(after)) if (value !== undefined && !holds(stored.record, key, value)) fields[key] = value;
  if (!stored.hasSeq) fields['_seq'] = sequenceKey();
  const pairs: unknown[] = [];
  for (const [key, value] of Object.entries(fields)) pairs.push(new FieldPath(key), value);
  const [first, firstValue, ...rest] = pairs as [FieldPath, unknown, ...unknown[]];
  tx.update(db.collection(USERS).doc(stored.record.uid), first, firstValue, ...rest);
  bumpUsersVersion(db, tx);
}

/** A new user document: the record, its look-up fields and its place in creation order. */
export const userDocOf = (record: UserRecord, seq: string = sequenceKey()): Record<string, unknown> => ({
  ...record,
  ...lookupFields(record),
  _seq: seq,
});

const SEARCH_MAX = 200;

/** `cache` is told of every user write made here (so are the payment, audit and transfer parts). */
export function createFirestoreUserStore(db: Firestore, cache: UserRecordCache = firestoreUserCache(db)): UserStore {
  const users = db.collection(USERS);

  /**
   * Documents whose look-up field is `value` (in `tx` when given, so a transaction re-reads
   * what it matched). Legacy documents without our look-up fields — written by another client
   * — are found by their own field, as typed or in lower case.
   */
  async function matching(key: UserKey, value: string, tx?: Transaction): Promise<QueryDocumentSnapshot[] | DocumentSnapshot[]> {
    const run = (query: Query) => (tx ? tx.get(query) : query.get());
    const wanted = value.trim();
    if (key === 'uid') {
      if (!usableId(wanted)) return [];
      const ref = users.doc(wanted);
      const snapshot = tx ? await tx.get(ref) : await ref.get();
      return snapshot.exists ? [snapshot] : [];
    }
    const found = await run(users.where(key === 'email' ? '_emailKey' : '_phoneKey', '==', normalize(key, wanted)));
    if (!found.empty) return found.docs;
    const legacy = await run(users.where(key, '==', wanted));
    if (!legacy.empty || key !== 'email' || wanted === wanted.toLowerCase()) return legacy.docs;
    return (await run(users.where(key, '==', wanted.toLowerCase()))).docs;
  }

  return {
    async createUser(record) {
      // The create() first: a commit that meets an existing record writes nothing (the stand-in
      // stops at the first failed write; Firestore commits all or nothing).
      const batch = db.batch();
      batch.create(db.doc(`${USERS}/${docId(record.uid)}`), userDocOf(record));
      bumpUsersVersion(db, batch);
      try {
        await cache.after(batch.commit());
        return true;
      } catch (error) {
        if (grpcCode(error) === ALREADY_EXISTS) return false;
        throw error;
      }
    },

    async cachedUser(uid, options) {
      const key = uid.trim();
      return key ? cache.get(key, options) : null;
    },

    async findUserBy(key, value) {
      if (!value || !value.trim()) return null;
      const docs = await matching(key, value);
      // The oldest record first, as SQLite's rowid order.
      const first = docs.toSorted((a, b) => String(a.get('_seq') ?? '').localeCompare(String(b.get('_seq') ?? '')))[0];
      return first ? userRecordOf(first.data()!, first.id) : null;
    },

    async updateUsersBy(key, value, patch) {
      if (!value.trim()) return 0;
      // Matched inside the transaction: a record whose e-mail changes meanwhile is not patched.
      return cache.after(transact(db, async (tx) => {
        const docs = await matching(key, value, tx);
        for (const doc of docs) {
          const stored = storedUserOf(doc);
          writeUserChanges(db, tx, stored, { ...stored.record, ...definedFields(patch), uid: doc.id });
        }
        return docs.length;
      }));
    },

    async searchUsers(query, limit) {
      const size = Math.min(Math.max(1, Math.floor(limit)), SEARCH_MAX);
      const q = query.trim();
      if (!q) return (await users.orderBy('_seq', 'desc').limit(size).get()).docs.map((doc) => userRecordOf(doc.data(), doc.id));
      // Firestore has no "contains": the look-up fields of every record are scanned (an admin
      // search; docs/deploy.md notes its cost), then the matches are read.
      const email = q.toLowerCase();
      const phone = q.replace(/[\s-]/g, '');
      const keys = await users.select('_emailKey', '_phoneKey', '_seq', 'email', 'phone').get();
      // A legacy document (no look-up fields of ours) is matched by its own fields.
      const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);
      const hits = keys.docs
        .filter((doc) => {
          const e = text(doc.get('_emailKey')) ?? text(doc.get('email'))?.trim().toLowerCase() ?? null;
          const p = text(doc.get('_phoneKey')) ?? text(doc.get('phone'))?.trim() ?? null;
          return doc.id === q || (e != null && e.includes(email)) || (p != null && p.includes(phone));
        })
        .toSorted((a, b) => String(b.get('_seq') ?? '').localeCompare(String(a.get('_seq') ?? '')))
        .slice(0, size);
      if (hits.length === 0) return [];
      const docs = await db.getAll(...hits.map((doc) => doc.ref));
      return docs.filter((doc) => doc.exists).map((doc) => userRecordOf(doc.data()!, doc.id));
    },

    async listUserFacts() {
      const snapshot = await users.select('role', 'subscribed', 'plan', 'createdAt', 'expiresAt').get();
      return snapshot.docs.map((doc): UserFacts => ({
        uid: doc.id,
        record: {
          role: doc.get('role') == null ? 'user' : String(doc.get('role')),
          subscribed: doc.get('subscribed') === true,
          plan: doc.get('plan') == null ? null : String(doc.get('plan')),
          createdAt: doc.get('createdAt') == null ? '' : String(doc.get('createdAt')),
          expiresAt: doc.get('expiresAt') == null ? null : String(plain(doc.get('expiresAt'))),
        },
      }));
    },
  };
}
