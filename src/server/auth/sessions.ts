/**
 * Server sessions: an ID token from the browser becomes a firebase-admin session cookie;
 * every request verifies the cookie with the revocation check; logout revokes.
 */
import type { Auth, DecodedIdToken } from 'firebase-admin/auth';

export const SESSION_COOKIE = '__session';
/** Session length; firebase-admin allows 5 minutes to 2 weeks. */
export const SESSION_DAYS = 5;
export const SESSION_MS = SESSION_DAYS * 86_400_000;
/** Only a fresh sign-in may mint a session cookie (the Firebase guide's rule). */
export const MAX_SIGN_IN_AGE_S = 5 * 60;

export class SessionError extends Error {
  readonly code: 'invalid_token' | 'stale_sign_in';
  constructor(code: SessionError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

export interface StartedSession {
  readonly cookie: string;
  readonly token: DecodedIdToken;
}

export async function startSession(auth: Auth, idToken: string, now = Date.now()): Promise<StartedSession> {
  let token: DecodedIdToken;
  try {
    token = await auth.verifyIdToken(idToken, true);
  } catch {
    throw new SessionError('invalid_token', 'The sign-in token is invalid or expired. Please sign in again.');
  }
  if (now / 1000 - token.auth_time > MAX_SIGN_IN_AGE_S) {
    throw new SessionError('stale_sign_in', 'Please sign in again to continue.');
  }
  const cookie = await auth.createSessionCookie(idToken, { expiresIn: SESSION_MS });
  return { cookie, token };
}

/**
 * How long a user's revocation state is trusted before Firebase is asked again. The cookie's
 * signature and expiry are checked on every request (locally); the revocation check costs a
 * call to Firebase, so it runs at most this often per user and process, and at once after a
 * sign-out handled here. Another instance notices a sign-out within this bound.
 */
export const REVOCATION_RECHECK_MS = 30_000;
const MAX_REMEMBERED_ACCOUNTS = 10_000;

interface AccountState {
  /** Sessions signed in before this instant (ms) are revoked. */
  readonly validAfterMs: number;
  readonly disabled: boolean;
  readonly checkedAt: number;
}
const accountStates = new Map<string, AccountState>();

async function accountState(auth: Auth, uid: string, now: number): Promise<AccountState | null> {
  const known = accountStates.get(uid);
  if (known && now - known.checkedAt < REVOCATION_RECHECK_MS) return known;
  let state: AccountState;
  try {
    const user = await auth.getUser(uid);
    state = {
      validAfterMs: user.tokensValidAfterTime ? Date.parse(user.tokensValidAfterTime) : 0,
      disabled: user.disabled,
      checkedAt: now,
    };
  } catch {
    return null; // a deleted account has no sessions
  }
  accountStates.delete(uid);
  accountStates.set(uid, state);
  // Oldest first in insertion order: forget the least recently checked.
  if (accountStates.size > MAX_REMEMBERED_ACCOUNTS) accountStates.delete(accountStates.keys().next().value!);
  return state;
}

/**
 * The verified session's token, or null for a missing, garbage, expired, revoked or disabled
 * one: the same answer as firebase-admin's `verifySessionCookie(cookie, true)`, with the
 * revocation look-up remembered for REVOCATION_RECHECK_MS.
 */
export async function verifySession(auth: Auth, cookie: string | undefined, now = Date.now()): Promise<DecodedIdToken | null> {
  if (!cookie) return null;
  let token: DecodedIdToken;
  try {
    token = await auth.verifySessionCookie(cookie, false);
  } catch {
    return null;
  }
  const state = await accountState(auth, token.uid, now);
  if (!state || state.disabled || token.auth_time * 1000 < state.validAfterMs) return null;
  return token;
}

/** Revokes every session of the cookie's user; a cookie that no longer verifies needs nothing. */
export async function endSession(auth: Auth, cookie: string | undefined): Promise<void> {
  if (!cookie) return;
  let uid: string;
  try {
    uid = (await auth.verifySessionCookie(cookie, false)).uid;
  } catch {
    return;
  }
  await auth.revokeRefreshTokens(uid);
  accountStates.delete(uid);
}
