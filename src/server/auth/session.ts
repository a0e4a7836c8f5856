import type { Entitlement } from '../../lib/access/policy.ts';
import type { UserRecord } from '../store/users.ts';

/** The signed-in visitor, as the middleware puts it on `locals.session` after verifying the cookie. */
export interface Session {
  readonly uid: string;
  readonly email: string | null;
  /** null until the record exists (the sign-in call creates it). */
  readonly record: UserRecord | null;
  readonly entitlement: Entitlement;
  /** true/false for regular users, null for admins or a missing record. */
  readonly inTrial: boolean | null;
  /** When the verified session cookie expires (ms); absent on sessions not made from a cookie (tests). */
  readonly expiresAt?: number;
}
