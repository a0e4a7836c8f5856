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

/** The verified session's token, or null for a missing, garbage, expired or revoked cookie. */
export async function verifySession(auth: Auth, cookie: string | undefined): Promise<DecodedIdToken | null> {
  if (!cookie) return null;
  try {
    return await auth.verifySessionCookie(cookie, true);
  } catch {
    return null;
  }
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
}
