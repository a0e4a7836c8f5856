/**
 * The remembered revocation state, against a counting stand-in for firebase-admin's Auth
 * (the emulator makes firebase-admin re-check on every call, which hides the window).
 */
import type { Auth, DecodedIdToken, UserRecord } from 'firebase-admin/auth';
import { describe, expect, it } from 'vitest';
import { REVOCATION_RECHECK_MS, endSession, verifySession } from '../../src/server/auth/sessions.ts';

function fakeAuth(uid: string, authTimeS: number) {
  const state = { validAfter: new Date(authTimeS * 1000).toUTCString(), disabled: false, getUserCalls: 0 };
  const auth = {
    async verifySessionCookie(cookie: string) {
      if (cookie !== `cookie-of-${uid}`) throw new Error('auth/argument-error');
      return { uid, auth_time: authTimeS } as DecodedIdToken;
    },
    async getUser(id: string) {
      state.getUserCalls++;
      if (id !== uid) throw new Error('auth/user-not-found');
      return { uid, disabled: state.disabled, tokensValidAfterTime: state.validAfter } as UserRecord;
    },
    async revokeRefreshTokens() {
      state.validAfter = new Date((authTimeS + 5) * 1000).toUTCString();
    },
  };
  return { auth: auth as unknown as Auth, state };
}

describe('verifySession', () => {
  const t0 = 1_800_000_000_000;

  it('asks Firebase about revocation at most once per interval and user', async () => {
    const { auth, state } = fakeAuth('u-once', t0 / 1000 - 60);
    for (let i = 0; i < 5; i++) expect((await verifySession(auth, 'cookie-of-u-once', t0 + i * 1000))?.uid).toBe('u-once');
    expect(state.getUserCalls).toBe(1);
    await verifySession(auth, 'cookie-of-u-once', t0 + REVOCATION_RECHECK_MS + 1);
    expect(state.getUserCalls).toBe(2);
  });

  it('refuses at once after a sign-out handled by this process', async () => {
    const { auth } = fakeAuth('u-out', t0 / 1000 - 60);
    expect(await verifySession(auth, 'cookie-of-u-out', t0)).not.toBeNull();
    await endSession(auth, 'cookie-of-u-out');
    expect(await verifySession(auth, 'cookie-of-u-out', t0 + 1)).toBeNull();
  });

  it('refuses a revocation made elsewhere once the interval has passed, and a disabled account', async () => {
    const { auth, state } = fakeAuth('u-else', t0 / 1000 - 60);
    expect(await verifySession(auth, 'cookie-of-u-else', t0)).not.toBeNull();
    state.validAfter = new Date(t0).toUTCString();
    expect(await verifySession(auth, 'cookie-of-u-else', t0 + 1000)).not.toBeNull();
    expect(await verifySession(auth, 'cookie-of-u-else', t0 + REVOCATION_RECHECK_MS + 1)).toBeNull();

    const disabled = fakeAuth('u-disabled', t0 / 1000 - 60);
    disabled.state.disabled = true;
    expect(await verifySession(disabled.auth, 'cookie-of-u-disabled', t0)).toBeNull();
  });

  it('treats a missing or unverifiable cookie as no session, without asking about the user', async () => {
    const { auth, state } = fakeAuth('u-none', t0 / 1000);
    expect(await verifySession(auth, undefined, t0)).toBeNull();
    expect(await verifySession(auth, 'garbage', t0)).toBeNull();
    expect(state.getUserCalls).toBe(0);
  });
});
