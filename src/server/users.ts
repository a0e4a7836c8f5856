/** User records around sign-in: created on first session, merged on update. */
import type { DecodedIdToken } from 'firebase-admin/auth';
import { isoDateOf, toDashedDate } from '../lib/dates.ts';
import type { UserKey, UserRecord, UserStore } from './store/users.ts';

/** The record a new account gets: role user, unsubscribed, created today (DD-MM-YYYY, India). */
export function newUserRecord(token: Pick<DecodedIdToken, 'uid' | 'email' | 'phone_number' | 'picture'> & { name?: unknown }, now: Date): UserRecord {
  return {
    uid: token.uid,
    displayName: typeof token.name === 'string' ? token.name : null,
    email: token.email ?? null,
    phone: token.phone_number ?? null,
    photoURL: token.picture ?? null,
    role: 'user',
    subscribed: false,
    plan: null,
    createdAt: toDashedDate(isoDateOf(now)),
  };
}

/**
 * The user's record, created first when missing, so it exists when sign-in returns.
 * `onCreated` runs once per account, for the request that created it (the welcome mail).
 */
export async function ensureUserRecord(store: UserStore, token: DecodedIdToken, now: Date, onCreated?: (record: UserRecord) => void): Promise<UserRecord> {
  const existing = await store.findUserBy('uid', token.uid);
  if (existing) return existing;
  const record = newUserRecord(token, now);
  if (await store.createUser(record)) onCreated?.(record);
  // Another request may have created it first; either way this is the stored record.
  return (await store.findUserBy('uid', token.uid))!;
}

export interface UpdateOptions {
  /** true before the write, false after it, whatever happened. */
  readonly onLoading?: (loading: boolean) => void;
  readonly log?: Pick<Console, 'info' | 'error'>;
}

/** Merges `patch` into every record matching email or phone; returns how many. */
export async function updateUserBy(
  store: UserStore,
  key: Extract<UserKey, 'email' | 'phone'>,
  value: string | null | undefined,
  patch: Partial<UserRecord>,
  { onLoading, log = console }: UpdateOptions = {},
): Promise<number> {
  if (!value || !value.trim()) return 0;
  onLoading?.(true);
  try {
    const count = await store.updateUsersBy(key, value, patch);
    if (count === 0) log.info('No matching documents found');
    return count;
  } catch (error) {
    log.error('Updating the user record failed', error);
    throw error;
  } finally {
    onLoading?.(false);
  }
}

/** A record as the browser may see it: payment signature left out. */
export function publicUserRecord(record: UserRecord): Omit<UserRecord, 'signature'> {
  const { signature: _signature, ...visible } = record;
  return visible;
}
