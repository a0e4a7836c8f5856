/**
 * What the Firestore adapter answers itself of user records (the rest is
 * ../documents/users.ts; the document layout is ./collections.ts): the users version
 * (`meta/users`, a token written in the commit of every user write), the administrator's
 * search and the dashboard's facts.
 */
import type { Firestore } from 'firebase-admin/firestore';
import type { DocumentDriver } from '../documents/driver.ts';
import type { UserQueries } from '../documents/users.ts';
import { UserRecordCache, type UserCacheOptions } from '../userCache.ts';
import type { UserFacts } from '../users.ts';
import { plain, userRecordOf, USERS_VERSION } from './collections.ts';

export const USERS = 'users';
const SEARCH_MAX = 200;

/** The cache of user records of one Firestore handle, and what it reads. */
export const firestoreUserCache = (db: Firestore, docs: DocumentDriver, options?: UserCacheOptions): UserRecordCache =>
  new UserRecordCache(
    {
      async readVersion() {
        const snapshot = await db.doc(USERS_VERSION).get();
        return snapshot.exists ? String(snapshot.get('version')) : '';
      },
      readRecord: (uid) => docs.get('users', uid),
    },
    options,
  );

export function firestoreUserQueries(db: Firestore): UserQueries {
  const users = db.collection(USERS);
  return {
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
