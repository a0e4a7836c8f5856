/** From a session cookie to `locals.session`: verify (with revocation), load the record, derive access. */
import type { Auth } from 'firebase-admin/auth';
import { entitlementOf } from '../../lib/access/policy.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { isInTrial } from '../../lib/trial.ts';
import { STORE_READ_TIMEOUT_MS, UnavailableError, withTimeout } from '../outages.ts';
import type { UserStore } from '../store/users.ts';
import type { Session } from './session.ts';
import { verifySession } from './sessions.ts';

type UserReader = Pick<UserStore, 'findUserBy'>;

/**
 * The visitor's session, or null when there is none (no cookie, or one that is garbage,
 * expired, revoked or signed out). Throws UnavailableError when the answer depends on a service
 * that cannot be reached: Firebase (beyond the outage grace, see sessions.ts) or the store.
 * The user record is read on every call, never cached: a plan bought, granted or revoked on
 * any instance counts on the next request (docs/decisions.md, "Sessions"). `store` may be a
 * function that opens the store: it is called only once the cookie verifies.
 */
export async function sessionFromCookie(
  deps: { auth: Auth; store: UserReader | (() => Promise<UserReader>) },
  cookie: string | undefined,
  now: Date,
): Promise<Session | null> {
  const verified = await verifySession(deps.auth, cookie, now.getTime());
  if (!verified) return null;
  let record: Awaited<ReturnType<UserStore['findUserBy']>>;
  try {
    const users = typeof deps.store === 'function' ? await deps.store() : deps.store;
    record = await withTimeout(users.findUserBy('uid', verified.uid), 'reading the user record', STORE_READ_TIMEOUT_MS);
  } catch (error) {
    throw new UnavailableError('store', 'The user record cannot be read.', { cause: error });
  }
  return {
    uid: verified.uid,
    email: verified.email,
    record,
    entitlement: entitlementOf({ uid: verified.uid, record }, now),
    inTrial: isInTrial(record, isoDateOf(now)),
  };
}
