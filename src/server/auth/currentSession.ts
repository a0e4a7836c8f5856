/** From a session cookie to `locals.session`: verify (with revocation), load the record, derive access. */
import type { Auth } from 'firebase-admin/auth';
import { entitlementOf } from '../../lib/access/policy.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { isInTrial } from '../../lib/trial.ts';
import { STORE_READ_TIMEOUT_MS, UnavailableError, withTimeout } from '../outages.ts';
import { seatFactsOf, type SeatReader } from './seat.ts';
import type { Session } from './session.ts';
import { verifySession } from './sessions.ts';

type UserReader = SeatReader;

/**
 * The visitor's session, or null when there is none (no cookie, or one that is garbage,
 * expired, revoked or signed out). Throws UnavailableError when the answer depends on a service
 * that cannot be reached: Firebase (beyond the outage grace, see sessions.ts) or the store.
 * The user record comes from the store's per-process copy (`cachedUser`: a write on this
 * instance counts at once, on another within USER_RECORD_BOUND_MS); `fresh` reads it from the
 * store, which the lanes do before they refuse (`sessionAllowing`). Entitlement and trial are
 * derived here, per request, from the record and `now` (docs/decisions.md, "User records").
 * `store` may be a function that opens the store: it is called only once the cookie verifies.
 */
export async function sessionFromCookie(
  deps: { auth: Auth; store: UserReader | (() => Promise<UserReader>) },
  cookie: string | undefined,
  now: Date,
  { fresh = false }: { readonly fresh?: boolean } = {},
): Promise<Session | null> {
  const verified = await verifySession(deps.auth, cookie, now.getTime());
  if (!verified) return null;
  let record: Awaited<ReturnType<UserReader['cachedUser']>>;
  let seat: Awaited<ReturnType<typeof seatFactsOf>>;
  try {
    const users = typeof deps.store === 'function' ? await deps.store() : deps.store;
    record = await withTimeout(users.cachedUser(verified.uid, { fresh }), 'reading the user record', STORE_READ_TIMEOUT_MS);
    // A team seat (when the record names one) is read from the store at every request.
    seat = await withTimeout(seatFactsOf(users, verified.uid, record, { fresh }), 'reading the team seat', STORE_READ_TIMEOUT_MS);
  } catch (error) {
    throw new UnavailableError('store', 'The user record cannot be read.', { cause: error });
  }
  return {
    uid: verified.uid,
    email: verified.email,
    record,
    seat,
    entitlement: entitlementOf({ uid: verified.uid, record, seat }, now),
    inTrial: isInTrial(record, isoDateOf(now)),
    expiresAt: verified.expiresAt,
  };
}

/**
 * The session a lane decides with: when the policy would refuse it (or send it elsewhere) on the
 * cached record, the record is read from the store and the session made again, so a plan bought,
 * granted or extended on another instance opens the door at once; only a refusal can wait for the
 * cache's bound (docs/decisions.md, "User records"). Signed-in refusals cost one store read, as
 * every signed-in request did before the cache.
 */
export async function sessionAllowing(
  read: (options: { readonly fresh: boolean }) => Promise<Session | null>,
  allows: (session: Session) => boolean,
): Promise<Session | null> {
  const session = await read({ fresh: false });
  return session === null || allows(session) ? session : read({ fresh: true });
}
