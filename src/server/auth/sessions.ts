/**
 * Server sessions: an ID token from the browser becomes a firebase-admin session cookie; every
 * request verifies the cookie; sign-out revokes.
 *
 * What a request costs (both modes): a SHA-256 of the cookie and a map look-up. The cookie is
 * checked in full (signature or emulator claims, expiry) the first time this process sees it and
 * remembered under its hash, never the cookie itself; its expiry is compared on every request.
 * Whether the user's sessions were revoked or the account disabled is asked of Firebase at most
 * every REVOCATION_RECHECK_MS per user. When Firebase cannot be reached, a session goes on, on
 * the last state Firebase gave, for at most AUTH_OUTAGE_GRACE_MS after it was given; sign-ins
 * answer 503 meanwhile. See docs/decisions.md ("Sessions").
 */
import { createHash } from 'node:crypto';
import type { Auth, DecodedIdToken, UserRecord } from 'firebase-admin/auth';
import { OutageLog, TimeoutError, UnavailableError, UNAVAILABLE_MESSAGES, type OutageState } from '../outages.ts';
import { verifyEmulatorSessionCookie } from './emulatorCookie.ts';
import { FIREBASE_TIMEOUT_MS, firebaseCouldNotAnswer, withFirebaseTimeout } from './firebaseCalls.ts';

export const SESSION_COOKIE = '__session';
/** Session length; firebase-admin allows 5 minutes to 2 weeks. */
export const SESSION_DAYS = 5;
export const SESSION_MS = SESSION_DAYS * 86_400_000;
/** Only a fresh sign-in may mint a session cookie (the Firebase guide's rule). */
export const MAX_SIGN_IN_AGE_S = 5 * 60;

/**
 * How long a user's revocation state is trusted before Firebase is asked again. A sign-out
 * handled by this process counts at once; another instance notices it within this bound.
 */
export const REVOCATION_RECHECK_MS = 30_000;
/** While Firebase cannot be reached, how long a last known revocation state keeps a session going. */
export const AUTH_OUTAGE_GRACE_MS = 15 * 60_000;
/**
 * While Firebase cannot be reached, it is tried again at most this often (not on every request),
 * counted from the end of the failed call (a hanging call fails only at its timeout), by one call.
 */
export const OUTAGE_RETRY_MS = 5_000;
/**
 * A call to Firebase unanswered this long is taken for a hang: no other call is started until it
 * ends, and requests meanwhile are answered from what is known (or 503) instead of waiting with
 * it. Firebase answers in a fraction of this; the Auth emulator on a busy 2-core machine took
 * over 2 s now and then (a sign-in was then refused as if Firebase hung), so 5 s.
 */
export const HANG_SUSPECT_MS = 5_000;
/** How long a sign-out waits for Firebase to take the revocation before it answers (the revocation goes on). */
export const SIGN_OUT_FIREBASE_WAIT_MS = 1_000;
/** Verified cookies remembered per process (about 200 bytes each), least recently used out first. */
export const MAX_CACHED_COOKIES = 10_000;
/** Users whose revocation state is remembered per process (about 100 bytes each). */
export const MAX_REMEMBERED_ACCOUNTS = 10_000;
/** A Firebase session cookie is about 1 KB (the emulator's about 600 bytes); a longer one is not one. */
const MAX_COOKIE_CHARS = 4096;
/** At most this long a sign-out waits for the second after the sign-in (see `end`). */
const SIGN_OUT_WAIT_MAX_MS = 2_000;

const OUTAGE_CONSEQUENCE = `signed-in sessions go on, on their last known revocation state, for up to ${AUTH_OUTAGE_GRACE_MS / 60_000} minutes; sign-ins answer 503`;

export class SessionError extends Error {
  readonly code: 'invalid_token' | 'stale_sign_in';
  constructor(code: SessionError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

/** What a verified session cookie says, remembered under the cookie's hash. */
export interface VerifiedSession {
  readonly uid: string;
  readonly email: string | null;
  /** When the user signed in, in whole seconds (Firebase's `auth_time`). */
  readonly authTime: number;
  /** The cookie is valid while now < expiresAt (ms). */
  readonly expiresAt: number;
}

export interface StartedSession {
  readonly cookie: string;
  readonly token: DecodedIdToken;
}

/**
 * A user's revocation state as Firebase last gave it, tightened by sign-outs here. Only an answer
 * from Firebase sets `checkedAt`: a sign-out here never makes the state younger.
 */
interface AccountState {
  /** Sessions signed in before this instant (ms) are revoked. */
  readonly validAfterMs: number;
  /** Disabled or deleted: no session of the account is valid. */
  readonly closed: boolean;
  /** When Firebase gave this state (ms); -Infinity when it never has. */
  readonly checkedAt: number;
}

export interface SessionVerifierOptions {
  /**
   * Emulator mode: cookies are unsigned and checked here (firebase-admin would ask the emulator
   * about the user on every call). Always given: the runtime's `authEmulator` (lib/modes.ts) is
   * the one rule; nothing here guesses it from the environment.
   */
  readonly emulator: boolean;
  /** The project the emulator's cookies are for. Default: the Auth's app's project id. */
  readonly projectId?: string;
  readonly timeoutMs?: number;
  readonly log?: Pick<Console, 'error' | 'warn'>;
}

const hashOf = (cookie: string): string => createHash('sha256').update(cookie).digest('base64url');

/** Map insertion order is recency: a hit moves to the end, the oldest entry leaves first. */
function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value as K);
}

const toMs = (time: string | undefined): number => (time ? Date.parse(time) : 0);

/** One process's view of its users' sessions with one Firebase project. */
export class SessionVerifier {
  readonly #auth: Auth;
  readonly #emulator: boolean;
  readonly #projectId: string;
  readonly #timeoutMs: number;
  readonly #log: Pick<Console, 'error' | 'warn'>;
  readonly #outage: OutageLog;
  readonly #cookies = new Map<string, VerifiedSession>();
  /** Hashes of cookies signed out here, until they expire: refused whatever Firebase says. */
  readonly #signedOut = new Map<string, number>();
  readonly #accounts = new Map<string, AccountState>();
  readonly #lookups = new Map<string, Promise<AccountState | null>>();
  /**
   * Sign-outs Firebase has not confirmed (uid → revoke before): in flight, or not told during an
   * outage and retried when it answers again. Every state Firebase gives is tightened by them.
   */
  readonly #pendingRevocations = new Map<string, number>();
  #lastAttempt = Number.NEGATIVE_INFINITY;
  /** Calls to Firebase not ended yet, by the instant each started (the `now` of its request). */
  readonly #inFlight = new Map<symbol, number>();
  /** While Firebase is down, no call before this instant: the end of the last failure + OUTAGE_RETRY_MS. */
  #retryAfter = Number.NEGATIVE_INFINITY;
  /** A sign-out was not told to Firebase (it was down or hanging): tell it at its next answer. */
  #revocationsUntold = false;
  #lastFailure: unknown = null;
  #lastAnswer = Number.NEGATIVE_INFINITY;
  #probe: Promise<void> | null = null;

  constructor(auth: Auth, options: SessionVerifierOptions) {
    this.#auth = auth;
    this.#emulator = options.emulator;
    this.#projectId = options.projectId ?? auth.app.options.projectId ?? '';
    this.#timeoutMs = options.timeoutMs ?? FIREBASE_TIMEOUT_MS;
    this.#log = options.log ?? console;
    this.#outage = new OutageLog('auth', this.#log);
  }

  /** What this process remembers, for tests and diagnostics: cookie keys are hashes, never cookies. */
  snapshot(): { readonly cookieKeys: readonly string[]; readonly accounts: number; readonly signedOut: number } {
    return { cookieKeys: [...this.#cookies.keys()], accounts: this.#accounts.size, signedOut: this.#signedOut.size };
  }

  /** Emulator mode: unsigned cookies are accepted, so only loopback may be served. */
  get emulator(): boolean {
    return this.#emulator;
  }

  /** Whether Firebase answered its last call, and since when it has not. */
  get state(): OutageState {
    return this.#outage.state;
  }

  /**
   * The session, or null for a missing, garbage, expired, revoked, disabled or signed-out
   * cookie: the same answer as firebase-admin's `verifySessionCookie(cookie, true)` with the
   * revocation state remembered. Throws UnavailableError('auth') when Firebase cannot be
   * reached and this process knows too little to answer (no state younger than the grace period).
   */
  async verify(cookie: string | undefined, now: number): Promise<VerifiedSession | null> {
    if (!cookie || cookie.length > MAX_COOKIE_CHARS) return null;
    const key = hashOf(cookie);
    if (this.#signedOut.has(key)) return null;
    let session = this.#cookies.get(key);
    if (session) {
      remember(this.#cookies, key, session, MAX_CACHED_COOKIES);
    } else {
      session = (await this.#verifyLocally(cookie, now)) ?? undefined;
      if (!session) return null;
      remember(this.#cookies, key, session, MAX_CACHED_COOKIES);
    }
    if (now >= session.expiresAt) {
      this.#cookies.delete(key);
      return null;
    }
    const account = await this.#accountState(session.uid, now);
    if (account.closed || session.authTime * 1000 < account.validAfterMs) return null;
    return session;
  }

  /** A fresh ID token → a session cookie. Throws SessionError (Firebase said no) or UnavailableError. */
  async start(idToken: string, now: number): Promise<StartedSession> {
    // Down or hanging: a sign-in would only wait for the timeout to answer 503.
    if (!this.#mayAsk(now)) throw new UnavailableError('auth', UNAVAILABLE_MESSAGES.auth, { cause: this.#lastFailure });
    // verifyIdToken with the revocation check asks Firebase about the user in both modes.
    const token = await this.#ask(() => this.#auth.verifyIdToken(idToken, true), 'verifying an ID token', now);
    if (!token) throw new SessionError('invalid_token', 'The sign-in token is invalid or expired. Please sign in again.');
    if (now / 1000 - token.auth_time > MAX_SIGN_IN_AGE_S) throw new SessionError('stale_sign_in', 'Please sign in again to continue.');
    const cookie = await this.#ask(() => this.#auth.createSessionCookie(idToken, { expiresIn: SESSION_MS }), 'creating a session cookie', now);
    if (!cookie) throw new SessionError('invalid_token', 'The sign-in token is invalid or expired. Please sign in again.');
    return { cookie, token };
  }

  /**
   * Signs the cookie's user out everywhere. Here at once and exactly: the cookie's hash is
   * refused from now on, and so is every session of the user signed in up to this second.
   * Elsewhere within REVOCATION_RECHECK_MS: Firebase revokes sessions signed in strictly before
   * its revocation time, kept in whole seconds, so a sign-out in the second of the sign-in
   * first waits for the next second (at most a second), or that cookie would stay valid on
   * every other instance. `everywhere` is false when Firebase could not be told; the
   * revocation is then retried when it answers again (by this process, while it runs).
   */
  async end(cookie: string | undefined, now: number): Promise<{ readonly everywhere: boolean }> {
    if (!cookie || cookie.length > MAX_COOKIE_CHARS) return { everywhere: true };
    const key = hashOf(cookie);
    let session: VerifiedSession | null | undefined = this.#cookies.get(key);
    if (!session) {
      try {
        session = await this.#verifyLocally(cookie, now);
      } catch (error) {
        if (error instanceof UnavailableError) return { everywhere: false };
        throw error;
      }
    }
    if (!session) return { everywhere: true }; // a cookie that does not verify has nothing to revoke
    this.#cookies.delete(key);
    remember(this.#signedOut, key, session.expiresAt, MAX_CACHED_COOKIES);
    const revokeBefore = Math.max((session.authTime + 1) * 1000, Math.floor(now / 1000) * 1000);
    // Pending until Firebase has it: a look-up of the user meanwhile must not undo it here.
    remember(this.#pendingRevocations, session.uid, Math.max(revokeBefore, this.#pendingRevocations.get(session.uid) ?? 0), MAX_REMEMBERED_ACCOUNTS);
    this.#revokeHere(session.uid, revokeBefore);

    // firebase-admin stamps the revocation with this process's clock (Date.now()); a timer may
    // fire a little early by that clock, so wait until it says so (bounded by the monotonic one).
    const nextSecond = (session.authTime + 1) * 1000;
    const giveUpAt = performance.now() + SIGN_OUT_WAIT_MAX_MS;
    while (Date.now() < nextSecond && performance.now() < giveUpAt) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(nextSecond - Date.now(), 50) + 1));
    }
    if (Date.now() < nextSecond) {
      this.#log.warn(`[auth] this server's clock is behind Firebase's: a sign-out of ${session.uid} right after its sign-in reaches other instances only when the clocks agree`);
    }
    // Firebase is told now unless it is down or hanging (then when it answers again); the answer
    // waits for it at most SIGN_OUT_FIREBASE_WAIT_MS: here the sign-out is already complete.
    if (!this.#mayAsk(now)) {
      this.#revocationsUntold = true;
      this.#log.error(`[auth] sign-out of ${session.uid}: Firebase cannot be reached; its other sessions stay valid elsewhere until it can (retried here)`);
      return { everywhere: false };
    }
    const told = this.#revokeAtFirebase(session.uid, revokeBefore, now);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), SIGN_OUT_FIREBASE_WAIT_MS);
      timer.unref();
    });
    try {
      return { everywhere: await Promise.race([told, waited]) };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * For the health check: whether Firebase answers, asking it (a look-up of a user that does not
   * exist) when no call has had an answer or a failure in the last REVOCATION_RECHECK_MS.
   */
  async reachable(now: number): Promise<boolean> {
    if (now - Math.max(this.#lastAttempt, this.#lastAnswer) >= REVOCATION_RECHECK_MS) {
      this.#probe ??= this.#ask(() => this.#auth.getUser('polyindex-health-probe'), 'the health probe', now)
        .then(() => undefined, () => undefined)
        .finally(() => (this.#probe = null));
      await this.#probe;
    }
    return this.#outage.state.up;
  }

  async #verifyLocally(cookie: string, now: number): Promise<VerifiedSession | null> {
    let token: DecodedIdToken;
    try {
      token = this.#emulator
        ? verifyEmulatorSessionCookie(cookie, this.#projectId, now)
        : // Real Firebase: the signature against Google's public keys (fetched when they expire, a few times a day).
          await withFirebaseTimeout(this.#auth.verifySessionCookie(cookie, false), 'verifying a session cookie', this.#timeoutMs);
    } catch (error) {
      if (!firebaseCouldNotAnswer(error)) return null;
      this.#outage.failed(error, now, OUTAGE_CONSEQUENCE);
      throw new UnavailableError('auth', 'The session cookie cannot be checked: Google\'s public keys cannot be fetched.', { cause: error });
    }
    return { uid: token.uid, email: token.email ?? null, authTime: token.auth_time, expiresAt: token.exp * 1000 };
  }

  async #accountState(uid: string, now: number): Promise<AccountState> {
    const known = this.#accounts.get(uid);
    if (known && now - known.checkedAt < REVOCATION_RECHECK_MS) return known;
    // During an outage or a hang one call at a time finds out when it is over; the rest do not wait.
    const fresh = this.#mayAsk(now) ? await this.#lookUp(uid, now) : null;
    if (fresh) return fresh;
    if (known && now - known.checkedAt < AUTH_OUTAGE_GRACE_MS) return known;
    throw new UnavailableError('auth', 'Firebase Auth cannot be reached to check this session.', { cause: this.#lastFailure });
  }

  /**
   * Whether a request may call Firebase now rather than answer from what is known: not while a
   * call has gone unanswered for HANG_SUSPECT_MS (it is hanging: one request waits, not all), and
   * during an outage only one call at a time, OUTAGE_RETRY_MS after the last failure ended.
   */
  #mayAsk(now: number): boolean {
    for (const startedAt of this.#inFlight.values()) if (now - startedAt >= HANG_SUSPECT_MS) return false;
    if (this.#outage.state.up) return true;
    return this.#inFlight.size === 0 && now >= this.#retryAfter;
  }

  /** One look-up per user at a time; null when Firebase could not be asked. */
  #lookUp(uid: string, now: number): Promise<AccountState | null> {
    let lookup = this.#lookups.get(uid);
    if (!lookup) {
      lookup = this.#fetchState(uid, now).finally(() => this.#lookups.delete(uid));
      this.#lookups.set(uid, lookup);
    }
    return lookup;
  }

  async #fetchState(uid: string, now: number): Promise<AccountState | null> {
    let user: UserRecord | null;
    try {
      user = await this.#call(() => this.#auth.getUser(uid), 'looking up a user', now);
    } catch (error) {
      if (firebaseCouldNotAnswer(error)) return null;
      user = null; // deleted: no sessions
    }
    return this.#given(uid, user, now);
  }

  /**
   * Remembers what Firebase said of the user (null: no such user) as of `now`, with the sign-outs
   * here it has not heard of yet (and `revokedHere`, one it just has), and returns it.
   */
  #given(uid: string, user: UserRecord | null, now: number, revokedHere = Number.NEGATIVE_INFINITY): AccountState {
    let state: AccountState = user
      ? { validAfterMs: toMs(user.tokensValidAfterTime), closed: user.disabled, checkedAt: now }
      : { validAfterMs: Number.POSITIVE_INFINITY, closed: true, checkedAt: now };
    const pending = Math.max(this.#pendingRevocations.get(uid) ?? Number.NEGATIVE_INFINITY, revokedHere);
    if (pending > state.validAfterMs) state = { ...state, validAfterMs: pending };
    remember(this.#accounts, uid, state, MAX_REMEMBERED_ACCOUNTS);
    return state;
  }

  /**
   * A sign-out here: sessions of the user signed in before `validAfterMs` are refused at once.
   * It only tightens. The state stays as old as Firebase's last answer (none: -Infinity), so a
   * sign-out never vouches for a session during an outage, and repeated ones cannot stretch the grace.
   */
  #revokeHere(uid: string, validAfterMs: number): void {
    const known = this.#accounts.get(uid);
    const state: AccountState = {
      validAfterMs: Math.max(validAfterMs, known?.validAfterMs ?? 0),
      closed: known?.closed ?? false,
      checkedAt: known?.checkedAt ?? Number.NEGATIVE_INFINITY,
    };
    remember(this.#accounts, uid, state, MAX_REMEMBERED_ACCOUNTS);
  }

  /** Revokes at Firebase and reads the revocation time back; false when Firebase could not be reached. */
  async #revokeAtFirebase(uid: string, revokeBefore: number, now: number): Promise<boolean> {
    try {
      await this.#call(() => this.#auth.revokeRefreshTokens(uid), 'revoking sessions', now);
      // Firebase has it (a later sign-out of the user, still in flight, stays pending).
      if ((this.#pendingRevocations.get(uid) ?? 0) <= revokeBefore) this.#pendingRevocations.delete(uid);
      // Read back: Firebase's whole answer (revocation time, disabled) is the new state.
      const user = await this.#call(() => this.#auth.getUser(uid), 'reading a revocation back', now).catch(() => undefined);
      if (user) this.#given(uid, user, now, revokeBefore);
      return true;
    } catch (error) {
      if (!firebaseCouldNotAnswer(error)) {
        this.#pendingRevocations.delete(uid); // no such user: nothing left to revoke
        return true;
      }
      remember(this.#pendingRevocations, uid, Math.max(revokeBefore, this.#pendingRevocations.get(uid) ?? 0), MAX_REMEMBERED_ACCOUNTS);
      this.#log.error(`[auth] sign-out of ${uid}: Firebase could not be told; its other sessions stay valid elsewhere until it can (retried here)`);
      return false;
    }
  }

  /** Sign-outs Firebase missed during an outage, told to it once it answers again. */
  async #retryRevocations(now: number): Promise<void> {
    for (const [uid, revokeBefore] of [...this.#pendingRevocations]) {
      if (!(await this.#revokeAtFirebase(uid, revokeBefore, now))) return;
    }
  }

  /**
   * One call to Firebase within the timeout; records whether Firebase answered (a "no" is an
   * answer) for the outage log, and rethrows the call's own error.
   */
  async #call<T>(call: () => Promise<T>, what: string, now: number): Promise<T> {
    this.#lastAttempt = now;
    const id = Symbol(what);
    this.#inFlight.set(id, now);
    try {
      const result = await withFirebaseTimeout(call(), what, this.#timeoutMs);
      this.#answered(now);
      return result;
    } catch (error) {
      if (firebaseCouldNotAnswer(error)) {
        this.#lastFailure = error;
        // The window runs from the failure: a timeout ends timeoutMs after the call began (on the
        // requests' clock); other failures (refused, reset, 5xx) come at once.
        this.#retryAfter = now + (error instanceof TimeoutError ? this.#timeoutMs : 0) + OUTAGE_RETRY_MS;
        this.#outage.failed(error, now, OUTAGE_CONSEQUENCE);
      } else {
        this.#answered(now);
      }
      throw error;
    } finally {
      this.#inFlight.delete(id);
    }
  }

  #answered(now: number): void {
    this.#lastAnswer = now;
    const wasDown = !this.#outage.state.up;
    this.#outage.answered(now);
    if ((wasDown || this.#revocationsUntold) && this.#pendingRevocations.size > 0) {
      this.#revocationsUntold = false;
      void this.#retryRevocations(now);
    }
  }

  /** A call whose "no" is null and whose failure to reach Firebase is UnavailableError (503). */
  async #ask<T>(call: () => Promise<T>, what: string, now: number): Promise<T | null> {
    try {
      return await this.#call(call, what, now);
    } catch (error) {
      if (firebaseCouldNotAnswer(error)) throw new UnavailableError('auth', UNAVAILABLE_MESSAGES.auth, { cause: error });
      return null;
    }
  }
}

const verifiers = new WeakMap<Auth, SessionVerifier>();

/**
 * The process's verifier for this Auth (one per Firebase app, so its caches are shared by every
 * request). Made once, with the mode, by whoever made the Auth (runtime.ts: `authEmulator`);
 * asked for later without options. An Auth nobody gave a mode fails loudly rather than be guessed.
 */
export function sessionVerifier(auth: Auth, options?: SessionVerifierOptions): SessionVerifier {
  let verifier = verifiers.get(auth);
  if (!verifier) {
    if (!options) throw new Error('sessionVerifier: this Auth has no session verifier yet; make it with its mode ({ emulator })');
    verifier = new SessionVerifier(auth, options);
    verifiers.set(auth, verifier);
  } else if (options && options.emulator !== verifier.emulator) {
    throw new Error('sessionVerifier: this Auth already has a verifier of the other mode');
  }
  return verifier;
}

export const startSession = (auth: Auth, idToken: string, now = Date.now()): Promise<StartedSession> => sessionVerifier(auth).start(idToken, now);

export const verifySession = (auth: Auth, cookie: string | undefined, now = Date.now()): Promise<VerifiedSession | null> =>
  sessionVerifier(auth).verify(cookie, now);

export const endSession = (auth: Auth, cookie: string | undefined, now = Date.now()): Promise<{ readonly everywhere: boolean }> =>
  sessionVerifier(auth).end(cookie, now);
