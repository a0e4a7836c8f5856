import type { Entitlement, SeatFacts } from '../../lib/access/policy.ts';
import type { ApiKeyRecord } from '../store/apiKeys.ts';
import type { UserRecord } from '../store/users.ts';

/** The signed-in visitor, as the middleware puts it on `locals.session` after verifying the cookie. */
export interface Session {
  readonly uid: string;
  readonly email: string | null;
  /** null until the record exists (the sign-in call creates it). */
  readonly record: UserRecord | null;
  /** A team seat held on another account's plan (./seat.ts), read at every request; null or absent when none. */
  readonly seat?: SeatFacts | null;
  readonly entitlement: Entitlement;
  /** true/false for regular users, null for admins or a missing record. */
  readonly inTrial: boolean | null;
  /** When the verified session cookie expires (ms); absent on sessions not made from a cookie (tests). */
  readonly expiresAt?: number;
  /** Set when the caller is a data-feed key acting for this user (src/server/feed/keys.ts): read-only, metered. */
  readonly apiKey?: KeyPrincipal;
}

/** Where a request carried its data-feed key. */
export type KeyPlace = 'header' | 'url';

/** What a session made from a data-feed key carries beside the owner's session: the key's record and where it was sent. */
export interface KeyPrincipal {
  readonly record: ApiKeyRecord;
  readonly place: KeyPlace;
}
