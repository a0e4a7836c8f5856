/**
 * User records (../users.ts), written once over the document driver: creation, look-ups by
 * uid, e-mail or phone, merges. The record cache (../userCache.ts) hears of every user write
 * made through the driver (grants and admin changes included). Search and the dashboard's
 * facts are each backend's own queries (a substring search, a projection).
 */
import type { UserRecordCache } from '../userCache.ts';
import { definedFields, userLookupKey, type UserKey, type UserRecord, type UserStore } from '../users.ts';
import type { DocumentDriver, DocumentReads } from './driver.ts';

/** What each backend answers itself. */
export type UserQueries = Pick<UserStore, 'searchUsers' | 'listUserFacts'>;

/** Records whose `key` is `value` (normalized as the index keeps it), oldest first. */
async function matching(reads: DocumentReads, key: UserKey, value: string): Promise<UserRecord[]> {
  const wanted = value.trim();
  if (key === 'uid') {
    const record = await reads.get('users', wanted);
    return record ? [record] : [];
  }
  return reads.list('users', [{ index: key, value: userLookupKey(key, wanted), asTyped: wanted }]);
}

export function createUserStore(docs: DocumentDriver, cache: UserRecordCache, queries: UserQueries): UserStore {
  docs.onWritten('users', () => cache.written());
  return {
    createUser: (record) => docs.createOnce('users', record),

    async cachedUser(uid, options) {
      const key = uid.trim();
      return key ? cache.get(key, options) : null;
    },

    async findUserBy(key, value) {
      if (!value || !value.trim()) return null;
      return (await matching(docs, key, value))[0] ?? null;
    },

    async updateUsersBy(key, value, patch) {
      if (!value.trim()) return 0;
      // Matched inside the transaction: a record whose e-mail changes meanwhile is not patched.
      return docs.transact(async (tx) => {
        const found = await matching(tx, key, value);
        // uid is the identity: a patch may not move a record to another user.
        for (const record of found) tx.put('users', { ...record, ...definedFields(patch), uid: record.uid });
        return found.length;
      });
    },

    ...queries,
  };
}
