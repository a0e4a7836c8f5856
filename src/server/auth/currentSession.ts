/** From a session cookie to `locals.session`: verify (with revocation), load the record, derive access. */
import type { Auth } from 'firebase-admin/auth';
import { entitlementOf } from '../../lib/access/policy.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { isInTrial } from '../../lib/trial.ts';
import type { UserStore } from '../store/users.ts';
import type { Session } from './session.ts';
import { verifySession } from './sessions.ts';

export async function sessionFromCookie(
  deps: { auth: Auth; store: UserStore },
  cookie: string | undefined,
  now: Date,
): Promise<Session | null> {
  const token = await verifySession(deps.auth, cookie);
  if (!token) return null;
  const record = await deps.store.findUserBy('uid', token.uid);
  return {
    uid: token.uid,
    email: token.email ?? null,
    record,
    entitlement: entitlementOf({ uid: token.uid, record }, now),
    inTrial: isInTrial(record, isoDateOf(now)),
  };
}
