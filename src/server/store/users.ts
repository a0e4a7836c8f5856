/**
 * The `users` part of the Store port: user records in the field names the legacy site used
 * (written once over the document driver: ./documents/users.ts).
 */

export type Role = 'admin' | 'user';

/**
 * A user record. Known fields are typed; any other field a client or an import wrote is kept
 * and survives merge-updates.
 */
export interface UserRecord {
  uid: string;
  displayName: string | null;
  email: string | null;
  phone: string | null;
  photoURL: string | null;
  /** `admin` or anything else (a regular user). */
  role: string;
  subscribed: boolean;
  plan?: string | null;
  /** `DD-MM-YYYY` */
  createdAt: string;
  subscriptionAmount?: number | null;
  paymentId?: string | null;
  orderId?: string | null;
  signature?: string | null;
  subscribedAt?: string | null;
  /** ISO instant at which the plan lapses. */
  expiresAt?: string | null;
  [field: string]: unknown;
}

/** Fields a user record can be found by. */
export type UserKey = 'uid' | 'email' | 'phone';

/** The look-up key of an e-mail or phone (e-mail ignores case, as Firebase does); null for none. */
export const userLookupKey = (key: 'email' | 'phone', value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  return key === 'email' ? trimmed.toLowerCase() : trimmed;
};

export interface UserStore {
  /** Adds a record; false when a record with this uid already exists (nothing changed). */
  createUser(record: UserRecord): Promise<boolean>;
  /** First match or null; null without a query when `value` is empty. */
  findUserBy(key: UserKey, value: string | null | undefined): Promise<UserRecord | null>;
  /**
   * The record of a signed-in visitor (as `findUserBy('uid', uid)`), from this process's copy
   * (./userCache.ts; docs/decisions.md, "User records"): a user write made through this store
   * shows at once, one made by another process within USER_RECORD_BOUND_MS, one that bypasses
   * the store within USER_RECORD_MAX_AGE_MS. `fresh` reads the store (and keeps what it read).
   * The record is shared by every caller and frozen.
   */
  cachedUser(uid: string, options?: { readonly fresh?: boolean }): Promise<UserRecord | null>;
  /** Merges `patch` into every record matching; returns how many changed. Unknown fields are kept. */
  updateUsersBy(key: UserKey, value: string, patch: Partial<UserRecord>): Promise<number>;
  /**
   * Records an administrator looks for: exact uid, or e-mail / phone containing the query (any
   * case; spaces and dashes in a phone query ignored); the newest accounts when the query is
   * empty. At most `limit`, newest first.
   */
  searchUsers(query: string, limit: number): Promise<UserRecord[]>;
  /** What the dashboard counts of every record: role, plan, subscription, creation date. */
  listUserFacts(): Promise<UserFacts[]>;
}

/** The access-relevant fields of a record, without the rest. */
export interface UserFacts {
  readonly uid: string;
  readonly record: Pick<UserRecord, 'role' | 'subscribed' | 'plan' | 'createdAt' | 'expiresAt'>;
}

/**
 * A patch without its `undefined` entries: `undefined` means "not given", so the field keeps
 * its value (JSON and Firestore both drop undefined; only null clears a field).
 */
export function definedFields<T extends Readonly<Record<string, unknown>>>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}
