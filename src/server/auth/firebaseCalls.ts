/**
 * Calls to Firebase Auth, bounded in time, and their failures told apart: "Firebase said no"
 * (no such user, a bad, expired or revoked token) is an answer; a network error, a timeout, a
 * 5xx or a failed fetch of Google's public keys means Firebase could not be asked.
 */
import { withTimeout } from '../outages.ts';

/**
 * How long a request waits for Firebase before it counts as unreachable: far above Firebase's
 * normal latency, and above the stalls of a busy machine (a process's first call also loads
 * firebase-admin's HTTP stack).
 */
export const FIREBASE_TIMEOUT_MS = 10_000;

/**
 * Waits at most FIREBASE_TIMEOUT_MS for a Firebase call. firebase-admin sets a 25 s timeout of
 * its own and retries a reset connection or a 503 four times (up to 7 s of back-off): up to
 * half a minute; the call itself may run on, and its outcome is then ignored.
 */
export const withFirebaseTimeout = <T>(call: Promise<T>, what: string, ms = FIREBASE_TIMEOUT_MS): Promise<T> => withTimeout(call, what, ms);

/**
 * firebase-admin's answers about a token or a user. Anything else (its `app/network-*` errors,
 * `auth/internal-error` for a 5xx, quota and credential errors, our timeout) means Firebase
 * could not be asked, and must not be taken as a "no".
 */
const ANSWERS = new Set([
  'auth/user-not-found',
  'auth/user-disabled',
  'auth/id-token-expired',
  'auth/id-token-revoked',
  'auth/session-cookie-expired',
  'auth/session-cookie-revoked',
  'auth/invalid-id-token',
  'auth/invalid-session-cookie-duration',
  'auth/invalid-uid',
  'auth/invalid-argument',
]);

/**
 * A token that does not verify is reported as `auth/argument-error`, and so, with the cause in
 * the message only, is a failure to fetch Google's public keys (real Firebase, when the cached
 * keys have expired): those messages are firebase-admin's `Error fetching public keys…` and its
 * HTTP client's `Error while making request…`.
 */
const KEY_FETCH_FAILURE = /^(Error fetching public keys|Error while making request)/;

export function firebaseCouldNotAnswer(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === 'auth/argument-error') return KEY_FETCH_FAILURE.test(error instanceof Error ? error.message : '');
  return typeof code !== 'string' || !ANSWERS.has(code);
}
