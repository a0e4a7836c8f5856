/**
 * Session verification against a counting stand-in for firebase-admin's Auth: what each request
 * costs, the remembered revocation state, exact expiry and sign-out, and outages. (The same
 * behaviour against the real emulator, through a proxy that can be cut: tests/integration/sessions.test.ts.)
 */
import { createHash } from 'node:crypto';
import type { Auth, DecodedIdToken, UserRecord } from 'firebase-admin/auth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmulatorCookieError, verifyEmulatorSessionCookie } from '../../src/server/auth/emulatorCookie.ts';
import { firebaseCouldNotAnswer } from '../../src/server/auth/firebaseCalls.ts';
import {
  AUTH_OUTAGE_GRACE_MS,
  HANG_SUSPECT_MS,
  MAX_CACHED_COOKIES,
  OUTAGE_RETRY_MS,
  REVOCATION_RECHECK_MS,
  SessionError,
  SessionVerifier,
  sessionVerifier,
} from '../../src/server/auth/sessions.ts';
import { TimeoutError, UnavailableError } from '../../src/server/outages.ts';

const T0 = 1_800_000_000_000; // a whole second
const networkError = () => Object.assign(new Error('Error while making request: connect ECONNREFUSED 127.0.0.1:9. Error code: ECONNREFUSED'), { code: 'app/network-error' });
const authError = (code: string) => Object.assign(new Error(code), { code });

/** A cookie the fake verifies: `cookie.<uid>.<auth_time s>.<exp s>`. */
const cookieOf = (uid: string, authTimeS = T0 / 1000 - 60, expS = T0 / 1000 + 86_400) => `cookie.${uid}.${authTimeS}.${expS}`;

/** firebase-admin's Auth as far as sessions use it, counting its calls; `mode` plays an outage. */
function fakeFirebase() {
  const users = new Map<string, { disabled: boolean; validSinceS: number }>();
  const calls = { verifySessionCookie: 0, getUser: 0, revokeRefreshTokens: 0, verifyIdToken: 0, createSessionCookie: 0 };
  /** `revocationsHeld`: revocations wait for it (a sign-out in flight). */
  const firebase = { mode: 'up' as 'up' | 'down' | 'hang', revocationsHeld: null as Promise<void> | null };
  const reach = () => {
    if (firebase.mode === 'down') throw networkError();
    if (firebase.mode === 'hang') return new Promise<never>(() => undefined);
    return Promise.resolve();
  };
  const auth = {
    app: { options: { projectId: 'demo-test' } },
    async verifySessionCookie(cookie: string) {
      calls.verifySessionCookie++;
      const [kind, uid, authTime, exp] = cookie.split('.');
      if (kind !== 'cookie' || !uid) throw authError('auth/argument-error');
      return { uid, sub: uid, auth_time: Number(authTime), exp: Number(exp), email: `${uid}@example.test` } as unknown as DecodedIdToken;
    },
    async getUser(uid: string) {
      calls.getUser++;
      await reach();
      const user = users.get(uid);
      if (!user) throw authError('auth/user-not-found');
      return { uid, disabled: user.disabled, tokensValidAfterTime: new Date(user.validSinceS * 1000).toUTCString() } as UserRecord;
    },
    async revokeRefreshTokens(uid: string) {
      calls.revokeRefreshTokens++;
      await reach();
      await firebase.revocationsHeld;
      // As firebase-admin: the revocation time is this process's clock, in whole seconds.
      users.get(uid)!.validSinceS = Math.floor(Date.now() / 1000);
    },
    async verifyIdToken(idToken: string) {
      calls.verifyIdToken++;
      await reach();
      const [kind, uid, authTime] = idToken.split('.');
      if (kind !== 'id' || !uid) throw authError('auth/argument-error');
      if (!users.has(uid)) throw authError('auth/user-not-found');
      return { uid, auth_time: Number(authTime) } as unknown as DecodedIdToken;
    },
    async createSessionCookie(idToken: string) {
      calls.createSessionCookie++;
      await reach();
      const [, uid, authTime] = idToken.split('.');
      return cookieOf(uid!, Number(authTime));
    },
  };
  const addUser = (uid: string, validSinceS = 0) => users.set(uid, { disabled: false, validSinceS });
  return { auth: auth as unknown as Auth, calls, users, addUser, firebase };
}

const quietLog = () => ({ error: vi.fn(), warn: vi.fn() });
const verifierOf = (auth: Auth, log = quietLog(), timeoutMs = 200) => new SessionVerifier(auth, { emulator: false, timeoutMs, log });

afterEach(() => {
  vi.useRealTimers();
});

describe('what a request costs', () => {
  it('checks a cookie in full once; after that a hash and a look-up, and Firebase once per user and 30 s', async () => {
    const { auth, calls, addUser } = fakeFirebase();
    addUser('u-cost');
    const verifier = verifierOf(auth);
    for (let i = 0; i < 1000; i++) expect((await verifier.verify(cookieOf('u-cost'), T0 + i * 10))?.uid).toBe('u-cost');
    expect(calls).toMatchObject({ verifySessionCookie: 1, getUser: 1 });
    await verifier.verify(cookieOf('u-cost'), T0 + REVOCATION_RECHECK_MS + 1);
    expect(calls).toMatchObject({ verifySessionCookie: 1, getUser: 2 });
  });

  it('remembers a cookie under its SHA-256, never the cookie itself', async () => {
    const { auth, addUser } = fakeFirebase();
    addUser('u-hash');
    const verifier = verifierOf(auth);
    const cookie = cookieOf('u-hash');
    await verifier.verify(cookie, T0);
    const { cookieKeys } = verifier.snapshot();
    expect(cookieKeys).toEqual([createHash('sha256').update(cookie).digest('base64url')]);
    expect(cookieKeys.join()).not.toContain('u-hash');
  });

  it(`keeps at most ${MAX_CACHED_COOKIES} cookies, the least recently used leaving first`, async () => {
    const { auth, calls, addUser } = fakeFirebase();
    addUser('u-many');
    const verifier = verifierOf(auth);
    const first = cookieOf('u-many', T0 / 1000 - 60, T0 / 1000 + 1);
    const second = cookieOf('u-many', T0 / 1000 - 60, T0 / 1000 + 2);
    await verifier.verify(first, T0);
    await verifier.verify(second, T0);
    for (let i = 0; i < MAX_CACHED_COOKIES - 1; i++) {
      await verifier.verify(cookieOf('u-many', T0 / 1000 - 60, T0 / 1000 + 100 + i), T0);
      if (i === 0) await verifier.verify(first, T0); // used again: now newer than `second`
    }
    expect(verifier.snapshot().cookieKeys).toHaveLength(MAX_CACHED_COOKIES);
    const before = calls.verifySessionCookie;
    await verifier.verify(first, T0);
    expect(calls.verifySessionCookie).toBe(before); // still remembered
    await verifier.verify(second, T0);
    expect(calls.verifySessionCookie).toBe(before + 1); // evicted, checked again
  });
});

describe('what a session is', () => {
  it('honours the cookie expiry to the millisecond, remembered or not', async () => {
    const { auth, addUser } = fakeFirebase();
    addUser('u-exp');
    const expS = T0 / 1000 + 100;
    const verifier = verifierOf(auth);
    expect(await verifier.verify(cookieOf('u-exp', T0 / 1000 - 60, expS), expS * 1000 - 1)).not.toBeNull();
    expect(await verifier.verify(cookieOf('u-exp', T0 / 1000 - 60, expS), expS * 1000)).toBeNull();
    expect(await verifierOf(auth).verify(cookieOf('u-exp', T0 / 1000 - 60, expS), expS * 1000)).toBeNull();
  });

  it('refuses a revocation made elsewhere once the interval has passed, and a disabled or deleted account', async () => {
    const { auth, users, addUser } = fakeFirebase();
    addUser('u-else');
    const verifier = verifierOf(auth);
    expect(await verifier.verify(cookieOf('u-else'), T0)).not.toBeNull();
    users.get('u-else')!.validSinceS = T0 / 1000;
    expect(await verifier.verify(cookieOf('u-else'), T0 + 1000)).not.toBeNull();
    expect(await verifier.verify(cookieOf('u-else'), T0 + REVOCATION_RECHECK_MS + 1)).toBeNull();

    addUser('u-disabled');
    users.get('u-disabled')!.disabled = true;
    expect(await verifier.verify(cookieOf('u-disabled'), T0)).toBeNull();
    expect(await verifier.verify(cookieOf('u-deleted'), T0)).toBeNull();
  });

  it('treats a missing, unverifiable or overlong cookie as no session, without asking about the user', async () => {
    const { auth, calls } = fakeFirebase();
    const verifier = verifierOf(auth);
    expect(await verifier.verify(undefined, T0)).toBeNull();
    expect(await verifier.verify('garbage', T0)).toBeNull();
    expect(await verifier.verify(`cookie.${'x'.repeat(5000)}.1.2`, T0)).toBeNull();
    expect(calls.getUser).toBe(0);
  });
});

describe('sign-out', () => {
  it('refuses a cookie signed out in the second of its sign-in: here at once, elsewhere within the bound', async () => {
    vi.useFakeTimers({ now: T0 + 300 });
    const { auth, addUser } = fakeFirebase();
    addUser('u-same');
    const cookie = cookieOf('u-same', T0 / 1000); // signed in at T0, this very second
    const here = verifierOf(auth);
    const elsewhere = verifierOf(auth); // another instance: its own memory, the same Firebase
    expect(await here.verify(cookie, Date.now())).not.toBeNull();
    expect(await elsewhere.verify(cookie, Date.now())).not.toBeNull();

    const signingOut = here.end(cookie, Date.now());
    expect(await here.verify(cookie, Date.now())).toBeNull(); // at once, before Firebase is told
    await vi.advanceTimersByTimeAsync(1000);
    expect(await signingOut).toEqual({ everywhere: true });
    expect(await here.verify(cookie, Date.now())).toBeNull();
    // Firebase's revocation second is after the sign-in's, so every instance refuses it.
    expect(await verifierOf(auth).verify(cookie, Date.now())).toBeNull();
    expect(await elsewhere.verify(cookie, Date.now() + REVOCATION_RECHECK_MS)).toBeNull();
  });

  it('refuses the user\'s other sessions signed in before the sign-out, and accepts a sign-in after it', async () => {
    vi.useFakeTimers({ now: T0 + 5_000 });
    const { auth, addUser } = fakeFirebase();
    addUser('u-other');
    const here = verifierOf(auth);
    const phone = cookieOf('u-other', T0 / 1000 - 100);
    const laptop = cookieOf('u-other', T0 / 1000 - 50, T0 / 1000 + 86_401);
    expect(await here.verify(phone, Date.now())).not.toBeNull();
    expect(await here.end(laptop, Date.now())).toEqual({ everywhere: true });
    expect(await here.verify(phone, Date.now())).toBeNull();
    expect(await here.verify(cookieOf('u-other', T0 / 1000 + 6), T0 + 6_000)).not.toBeNull();
  });
});

describe('when Firebase cannot be reached', () => {
  it(`keeps a session on its last known state for ${AUTH_OUTAGE_GRACE_MS / 60_000} minutes, logged once, and once on recovery`, async () => {
    const { auth, calls, addUser, firebase } = fakeFirebase();
    addUser('u-grace');
    const log = quietLog();
    const verifier = verifierOf(auth, log);
    await verifier.verify(cookieOf('u-grace'), T0);
    firebase.mode = 'down';
    for (let t = T0 + REVOCATION_RECHECK_MS; t < T0 + AUTH_OUTAGE_GRACE_MS; t += 60_000) {
      expect((await verifier.verify(cookieOf('u-grace'), t))?.uid).toBe('u-grace');
    }
    await expect(verifier.verify(cookieOf('u-grace'), T0 + AUTH_OUTAGE_GRACE_MS)).rejects.toBeInstanceOf(UnavailableError);
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]![0]).toMatch(/\[auth\] cannot be reached \(app\/network-error/);
    expect(verifier.state.up).toBe(false);
    expect(calls.getUser).toBeGreaterThan(1);

    firebase.mode = 'up';
    expect(await verifier.verify(cookieOf('u-grace'), T0 + AUTH_OUTAGE_GRACE_MS + OUTAGE_RETRY_MS)).not.toBeNull();
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0]![0]).toMatch(/\[auth\] reachable again after \d+ s/);
    expect(verifier.state).toEqual({ up: true, downSince: null });
  });

  it('asks a dead Firebase at most every few seconds, not on every request', async () => {
    const { auth, calls, addUser, firebase } = fakeFirebase();
    for (const uid of ['u-a', 'u-b', 'u-c']) addUser(uid);
    const verifier = verifierOf(auth);
    for (const uid of ['u-a', 'u-b', 'u-c']) await verifier.verify(cookieOf(uid), T0);
    firebase.mode = 'down';
    const before = calls.getUser;
    const t = T0 + REVOCATION_RECHECK_MS;
    for (const uid of ['u-a', 'u-b', 'u-c']) for (let i = 0; i < 10; i++) await verifier.verify(cookieOf(uid), t + i);
    expect(calls.getUser - before).toBe(1);
    await verifier.verify(cookieOf('u-a'), t + OUTAGE_RETRY_MS);
    expect(calls.getUser - before).toBe(2);
  });

  it('keeps a revoked or disabled session refused, and answers 503 for a session it knows nothing of', async () => {
    const { auth, users, addUser, firebase } = fakeFirebase();
    addUser('u-revoked', T0 / 1000);
    addUser('u-unknown');
    const verifier = verifierOf(auth);
    expect(await verifier.verify(cookieOf('u-revoked'), T0)).toBeNull();
    firebase.mode = 'down';
    users.get('u-revoked')!.validSinceS = 0;
    expect(await verifier.verify(cookieOf('u-revoked'), T0 + REVOCATION_RECHECK_MS)).toBeNull();
    await expect(verifier.verify(cookieOf('u-unknown'), T0 + REVOCATION_RECHECK_MS)).rejects.toMatchObject({ dependency: 'auth' });
  });

  it('gives up on a Firebase that does not answer after the timeout', async () => {
    const { auth, addUser, firebase } = fakeFirebase();
    addUser('u-hang');
    const verifier = verifierOf(auth, quietLog(), 50);
    firebase.mode = 'hang';
    // The cause is our timeout: that is what ended the wait.
    await expect(verifier.verify(cookieOf('u-hang'), T0)).rejects.toMatchObject({ dependency: 'auth', cause: expect.any(TimeoutError) });
  });

  it('a hanging Firebase costs one waiting request per window; the rest, sign-in and sign-out are answered at once (probe finding 3)', async () => {
    // The process's clock (which a sign-out compares with the sign-in second) at the requests' time; timers real.
    vi.useFakeTimers({ toFake: ['Date'], now: T0 + REVOCATION_RECHECK_MS, shouldAdvanceTime: true });
    const { auth, calls, addUser, firebase } = fakeFirebase();
    for (const uid of ['u-first', 'u-known', 'u-leaving']) addUser(uid);
    addUser('u-new');
    const timeoutMs = 2_000;
    const verifier = verifierOf(auth, quietLog(), timeoutMs);
    for (const uid of ['u-first', 'u-known', 'u-leaving']) expect(await verifier.verify(cookieOf(uid), T0)).not.toBeNull();
    firebase.mode = 'hang';
    const settled = (promise: Promise<unknown>) => promise.then(() => 'settled', () => 'settled');
    /** Whether `answer` comes before the hanging call's timeout: it did not wait with it. */
    const before = async <T,>(hanging: Promise<unknown>, answer: Promise<T>) => Promise.race([answer.then((value) => ({ value }), (error: unknown) => ({ error })), settled(hanging).then(() => 'waited' as const)]);

    // The first request past the recheck interval asks, and waits for the timeout.
    const t1 = T0 + REVOCATION_RECHECK_MS;
    const first = verifier.verify(cookieOf('u-first'), t1);
    const asked = calls.getUser;
    // Once that call has gone unanswered for HANG_SUSPECT_MS, nobody else waits with it:
    const t2 = t1 + HANG_SUSPECT_MS;
    expect(await before(first, verifier.verify(cookieOf('u-known'), t2))).toMatchObject({ value: { uid: 'u-known' } });
    expect(await before(first, verifier.verify(cookieOf('u-new'), t2))).toMatchObject({ error: expect.any(UnavailableError) });
    expect(await before(first, verifier.start(`id.u-new.${t2 / 1000 - 10}`, t2))).toMatchObject({ error: expect.any(UnavailableError) });
    expect(await before(first, verifier.end(cookieOf('u-leaving'), t2))).toEqual({ value: { everywhere: false } });
    expect(calls.getUser).toBe(asked);
    expect(calls.revokeRefreshTokens).toBe(0);
    await expect(first).resolves.toMatchObject({ uid: 'u-first' }); // after the timeout, on its last known state

    // The window is counted from the end of the failed call (its timeout), not from its start.
    const failedAt = t1 + timeoutMs;
    expect((await verifier.verify(cookieOf('u-first'), failedAt + 1_000))?.uid).toBe('u-first');
    expect(calls.getUser).toBe(asked);
    // One call per window: the next request after it waits; one at the same instant does not.
    const retry = verifier.verify(cookieOf('u-first'), failedAt + OUTAGE_RETRY_MS);
    expect(calls.getUser).toBe(asked + 1);
    expect(await before(retry, verifier.verify(cookieOf('u-known'), failedAt + OUTAGE_RETRY_MS))).toMatchObject({ value: { uid: 'u-known' } });
    expect(calls.getUser).toBe(asked + 1);
    await expect(retry).resolves.toMatchObject({ uid: 'u-first' }); // within the grace, on the last known state

    // Firebase answers again: the sign-out it missed is told to it.
    firebase.mode = 'up';
    expect(await verifier.verify(cookieOf('u-first'), failedAt + OUTAGE_RETRY_MS + timeoutMs + OUTAGE_RETRY_MS)).not.toBeNull();
    await vi.waitFor(() => expect(calls.revokeRefreshTokens).toBe(1));
    expect(await verifier.verify(cookieOf('u-leaving'), failedAt + 3 * OUTAGE_RETRY_MS)).toBeNull();
  });

  it('answers a sign-in with 503 when Firebase cannot be reached and 401 when it says no', async () => {
    const { auth, calls, addUser, firebase } = fakeFirebase();
    addUser('u-in');
    const verifier = verifierOf(auth);
    const now = T0;
    expect((await verifier.start(`id.u-in.${now / 1000 - 10}`, now)).cookie).toBe(cookieOf('u-in', now / 1000 - 10));
    await expect(verifier.start('id.u-nobody.1', now)).rejects.toBeInstanceOf(SessionError);
    await expect(verifier.start(`id.u-in.${now / 1000 - 600}`, now)).rejects.toMatchObject({ code: 'stale_sign_in' });
    firebase.mode = 'down';
    await expect(verifier.start(`id.u-in.${now / 1000 - 10}`, now)).rejects.toMatchObject({ dependency: 'auth', message: 'Sign-in is unavailable, try again in a few minutes.' });
    expect(calls.createSessionCookie).toBe(1);
  });

  it('signs a cookie out here during an outage, and tells Firebase once it answers again', async () => {
    vi.useFakeTimers({ now: T0 + 5_000 });
    const { auth, calls, users, addUser, firebase } = fakeFirebase();
    addUser('u-later');
    addUser('u-probe');
    const log = quietLog();
    const verifier = verifierOf(auth, log);
    const cookie = cookieOf('u-later');
    expect(await verifier.verify(cookie, Date.now())).not.toBeNull();
    firebase.mode = 'down';
    expect(await verifier.end(cookie, Date.now())).toEqual({ everywhere: false });
    expect(await verifier.verify(cookie, Date.now())).toBeNull();
    expect(users.get('u-later')!.validSinceS).toBe(0);

    firebase.mode = 'up';
    await verifier.verify(cookieOf('u-probe'), Date.now() + OUTAGE_RETRY_MS);
    await vi.waitFor(() => expect(users.get('u-later')!.validSinceS).toBeGreaterThan(T0 / 1000 - 60));
    expect(calls.revokeRefreshTokens).toBe(2);
    // Another instance now refuses it too.
    expect(await verifierOf(auth).verify(cookie, Date.now())).toBeNull();
  });

  it('never lets a sign-out vouch for the account: repeated sign-outs do not stretch the grace', async () => {
    const start = T0 + AUTH_OUTAGE_GRACE_MS - 30_000;
    vi.useFakeTimers({ now: start });
    const { auth, addUser, firebase } = fakeFirebase();
    addUser('u-stretch');
    const verifier = verifierOf(auth);
    expect(await verifier.verify(cookieOf('u-stretch'), T0)).not.toBeNull(); // Firebase's last word: T0
    firebase.mode = 'down';
    // Near the end of the grace, sign-outs of other cookies of the account, one after another…
    for (let i = 0; i < 3; i++) {
      const now = start + i * 10_000;
      vi.setSystemTime(now);
      expect(await verifier.end(cookieOf('u-stretch', T0 / 1000 - 60 + i + 1), now)).toEqual({ everywhere: false });
    }
    // …and a session signed in after them all: past the grace, it cannot be vouched for.
    const later = cookieOf('u-stretch', (start + 30_000) / 1000);
    await expect(verifier.verify(later, T0 + AUTH_OUTAGE_GRACE_MS + 1_000)).rejects.toBeInstanceOf(UnavailableError);
  });
});

describe('what a sign-out knows', () => {
  it('takes the whole state Firebase reads back after a sign-out, a disabled account included', async () => {
    vi.useFakeTimers({ now: T0 + 5_000 });
    const { auth, users, addUser } = fakeFirebase();
    addUser('u-closed');
    const verifier = verifierOf(auth);
    expect(await verifier.verify(cookieOf('u-closed', T0 / 1000 - 100), Date.now())).not.toBeNull();
    users.get('u-closed')!.disabled = true; // disabled at Firebase; this process's state is still fresh
    expect(await verifier.end(cookieOf('u-closed', T0 / 1000 - 50), Date.now())).toEqual({ everywhere: true });
    // A session signed in after the sign-out, within the 30 s: the read-back said the account is closed.
    expect(await verifier.verify(cookieOf('u-closed', T0 / 1000 + 6), T0 + 7_000)).toBeNull();
  });

  it('holds a sign-out in flight here: a look-up of the user meanwhile does not undo it', async () => {
    vi.useFakeTimers({ now: T0 + 5_000 });
    const { auth, calls, addUser, firebase } = fakeFirebase();
    addUser('u-flight');
    const verifier = verifierOf(auth);
    const phone = cookieOf('u-flight', T0 / 1000 - 100);
    expect(await verifier.verify(phone, Date.now())).not.toBeNull();
    vi.setSystemTime(T0 + 5_000 + REVOCATION_RECHECK_MS); // the state is due a re-check
    let release!: () => void;
    firebase.revocationsHeld = new Promise<void>((resolve) => (release = resolve));
    const signingOut = verifier.end(cookieOf('u-flight', T0 / 1000 - 50), Date.now());
    await vi.waitFor(() => expect(calls.revokeRefreshTokens).toBe(1));
    const before = calls.getUser;
    expect(await verifier.verify(phone, Date.now())).toBeNull(); // Firebase still says "valid"
    expect(calls.getUser).toBe(before + 1);
    release();
    expect(await signingOut).toEqual({ everywhere: true });
    expect(await verifier.verify(phone, Date.now())).toBeNull();
  });
});

describe('the mode is given, never guessed', () => {
  it('makes the verifier of an Auth once, with its mode; asking for the other mode fails loudly', () => {
    const { auth } = fakeFirebase();
    expect(() => sessionVerifier(auth)).toThrow(/no session verifier/);
    const verifier = sessionVerifier(auth, { emulator: false });
    expect(sessionVerifier(auth)).toBe(verifier);
    expect(sessionVerifier(auth, { emulator: false })).toBe(verifier);
    expect(() => sessionVerifier(auth, { emulator: true })).toThrow(/other mode/);
  });

  it('takes no hint from FIREBASE_AUTH_EMULATOR_HOST: real mode refuses an unsigned cookie with the variable set', async () => {
    const saved = process.env['FIREBASE_AUTH_EMULATOR_HOST'];
    process.env['FIREBASE_AUTH_EMULATOR_HOST'] = '127.0.0.1:9';
    try {
      const { auth, addUser } = fakeFirebase();
      addUser('u-real');
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const claims = Buffer.from(
        JSON.stringify({ iss: 'https://session.firebase.google.com/demo-test', aud: 'demo-test', sub: 'u-real', auth_time: T0 / 1000 - 60, iat: T0 / 1000 - 60, exp: T0 / 1000 + 100 }),
      ).toString('base64url');
      const verifier = sessionVerifier(auth, { emulator: false, log: quietLog() });
      expect(verifier.emulator).toBe(false);
      expect(await verifier.verify(`${header}.${claims}.`, T0)).toBeNull();
    } finally {
      if (saved === undefined) delete process.env['FIREBASE_AUTH_EMULATOR_HOST'];
      else process.env['FIREBASE_AUTH_EMULATOR_HOST'] = saved;
    }
  });
});

describe('emulator mode', () => {
  const unsigned = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'none', typ: 'JWT' }, signature = '') =>
    `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
  const claims = (over: Record<string, unknown> = {}) => ({
    iss: 'https://session.firebase.google.com/demo-test',
    aud: 'demo-test',
    sub: 'u-emu',
    user_id: 'u-emu',
    email: 'u-emu@example.test',
    auth_time: T0 / 1000 - 60,
    iat: T0 / 1000 - 60,
    exp: T0 / 1000 + 100,
    ...over,
  });

  it('checks the emulator\'s unsigned cookies here: no call to the emulator but the revocation state', async () => {
    const { auth, calls, addUser } = fakeFirebase();
    addUser('u-emu');
    const verifier = new SessionVerifier(auth, { emulator: true, log: quietLog() });
    for (let i = 0; i < 100; i++) expect((await verifier.verify(unsigned(claims()), T0 + i))?.email).toBe('u-emu@example.test');
    expect(calls).toMatchObject({ verifySessionCookie: 0, getUser: 1 });
  });

  it.each([
    ['a signed cookie', unsigned(claims(), { alg: 'RS256' }, 'c2ln')],
    ['a signature on alg none', unsigned(claims(), undefined, 'c2ln')],
    ['another project', unsigned(claims({ aud: 'demo-other' }))],
    ['an ID token', unsigned(claims({ iss: 'https://securetoken.google.com/demo-test' }))],
    ['no subject', unsigned(claims({ sub: '' }))],
    ['a long subject', unsigned(claims({ sub: 'x'.repeat(129) }))],
    ['no auth_time', unsigned(claims({ auth_time: undefined }))],
    ['not yet valid', unsigned(claims({ nbf: T0 / 1000 + 10 }))],
    ['two parts', 'a.b'],
    ['garbage JSON', 'eyJ.eyJ.'],
  ])('refuses %s', (_label, cookie) => {
    expect(() => verifyEmulatorSessionCookie(cookie, 'demo-test', T0)).toThrow(EmulatorCookieError);
  });

  it('lets no forged cookie in through a sign-out while Firebase cannot be reached (the review\'s probe)', async () => {
    vi.useFakeTimers({ now: T0 + 5_000 });
    const { auth, calls, addUser, firebase } = fakeFirebase();
    addUser('demo-admin');
    const verifier = new SessionVerifier(auth, { emulator: true, log: quietLog() });
    // Anyone on loopback can write an emulator cookie for any uid: alg none, no signature.
    const forged = (authTimeS: number) => unsigned(claims({ sub: 'demo-admin', user_id: 'demo-admin', auth_time: authTimeS, iat: authTimeS, exp: T0 / 1000 + 3600 }));
    firebase.mode = 'down';
    const a = forged(T0 / 1000 - 60);
    await expect(verifier.verify(a, Date.now())).rejects.toBeInstanceOf(UnavailableError);
    expect(await verifier.end(a, Date.now())).toEqual({ everywhere: false });
    // A second forged cookie, signed in after that sign-out: still nothing vouches for the account.
    vi.setSystemTime(T0 + 7_000);
    const b = forged(T0 / 1000 + 6);
    await expect(verifier.verify(b, Date.now())).rejects.toBeInstanceOf(UnavailableError);
    expect(await verifier.end(b, Date.now())).toEqual({ everywhere: false });
    await expect(verifier.verify(forged(T0 / 1000 + 8), T0 + 9_000)).rejects.toBeInstanceOf(UnavailableError);
    expect(calls.verifySessionCookie).toBe(0);
  });

  it('expires at exp exactly', () => {
    expect(verifyEmulatorSessionCookie(unsigned(claims()), 'demo-test', (T0 / 1000 + 100) * 1000 - 1).uid).toBe('u-emu');
    expect(() => verifyEmulatorSessionCookie(unsigned(claims()), 'demo-test', (T0 / 1000 + 100) * 1000)).toThrow(/expired/);
  });
});

describe('telling "Firebase said no" from "Firebase could not be reached"', () => {
  it.each([
    ['no such user', authError('auth/user-not-found'), false],
    ['a revoked cookie', authError('auth/session-cookie-revoked'), false],
    ['an expired token', authError('auth/id-token-expired'), false],
    ['a bad token', Object.assign(new Error('Decoding Firebase ID token failed.'), { code: 'auth/argument-error' }), false],
    ['a disabled user', authError('auth/user-disabled'), false],
    ['a network error', networkError(), true],
    ['a network timeout', authError('app/network-timeout'), true],
    ['a 5xx', authError('auth/internal-error'), true],
    ['Google keys unreachable', Object.assign(new Error('Error fetching public keys for Google certs: 503'), { code: 'auth/argument-error' }), true],
    ['Google keys: network', Object.assign(new Error('Error while making request: getaddrinfo EAI_AGAIN'), { code: 'auth/argument-error' }), true],
    ['our timeout', new TimeoutError('x', 1), true],
    ['a quota', authError('auth/quota-exceeded'), true],
    ['an error without a code', new TypeError('fetch failed'), true],
  ])('%s', (_label, error, couldNotAnswer) => expect(firebaseCouldNotAnswer(error)).toBe(couldNotAnswer));
});
