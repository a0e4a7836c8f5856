/**
 * Sign-in against the real Firebase Auth emulator: ID token → session cookie → user record,
 * revocation, the endpoints and the middleware, all with a real SQLite file.
 */
import { describe, expect, it, vi } from 'vitest';
import { onRequest } from '../../src/middleware.ts';
import { POST as logout } from '../../src/pages/api/auth/logout.ts';
import { POST as signIn } from '../../src/pages/api/auth/session.ts';
import { GET as session } from '../../src/pages/api/session.ts';
import { REVOCATION_RECHECK_MS, SESSION_COOKIE, endSession, startSession, verifySession } from '../../src/server/auth/sessions.ts';
import { auth, store } from '../../src/server/runtime.ts';
import { apiContext, emulatorSignIn, emulatorSignUp, uniqueEmail } from './helpers.ts';

/** Firebase's `auth_time` of a session cookie: when its user signed in, in whole seconds. */
const authTimeOf = (cookie: string): number => (JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString()) as { auth_time: number }).auth_time;

const ORIGIN = { Origin: 'http://127.0.0.1:4321', 'Content-Type': 'application/json' };

async function signInThroughEndpoint(email = uniqueEmail('endpoint')) {
  const account = await emulatorSignUp(email);
  const { context, set } = apiContext('/api/auth/session', { method: 'POST', headers: ORIGIN, body: JSON.stringify({ idToken: account.idToken }) });
  const response = await signIn(context);
  return { response, cookie: set[SESSION_COOKIE], account, email };
}

describe('session cookies against the emulator', () => {
  it('turns a fresh ID token into a cookie that verifies, until it is revoked', async () => {
    const { idToken, uid } = await emulatorSignUp(uniqueEmail('cookie'));
    const { cookie, token } = await startSession(auth(), idToken);
    expect(token.uid).toBe(uid);
    expect((await verifySession(auth(), cookie))?.uid).toBe(uid);

    // At once, even in the second of the sign-in (tests/integration/sessions.test.ts makes sure of that second).
    await endSession(auth(), cookie);
    expect(await verifySession(auth(), cookie)).toBeNull();
  });

  it('treats a missing or garbage cookie as no session', async () => {
    expect(await verifySession(auth(), undefined)).toBeNull();
    expect(await verifySession(auth(), 'garbage')).toBeNull();
    expect(await verifySession(auth(), 'a.b.c')).toBeNull();
  });

  it('refuses a sign-in older than five minutes', async () => {
    const { idToken } = await emulatorSignUp(uniqueEmail('stale'));
    await expect(startSession(auth(), idToken, Date.now() + 6 * 60_000)).rejects.toMatchObject({ code: 'stale_sign_in' });
  });
});

describe('POST /api/auth/session', () => {
  it('sets an HttpOnly, SameSite=Lax cookie and creates the record before it returns', async () => {
    const { response, cookie, account, email } = await signInThroughEndpoint();
    expect(response.status).toBe(200);
    expect(cookie?.options).toMatchObject({ httpOnly: true, sameSite: 'lax', secure: false, path: '/' });
    const record = await (await store()).findUserBy('uid', account.uid);
    expect(record).toMatchObject({ uid: account.uid, email, role: 'user', subscribed: false, displayName: null, phone: null, photoURL: null });
    expect(record?.createdAt).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    const body = (await response.json()) as { user: { uid: string } };
    expect(body.user.uid).toBe(account.uid);
  });

  it('keeps the existing record on a second sign-in', async () => {
    const email = uniqueEmail('again');
    const first = await signInThroughEndpoint(email);
    await (await store()).updateUsersBy('uid', first.account.uid, { company: 'Kept Ltd' });
    const idToken = await emulatorSignIn(email);
    const { context } = apiContext('/api/auth/session', { method: 'POST', headers: ORIGIN, body: JSON.stringify({ idToken }) });
    const response = await signIn(context);
    expect(((await response.json()) as { user: Record<string, unknown> }).user).toMatchObject({ company: 'Kept Ltd' });
  });

  it.each([
    ['no body', 400, undefined],
    ['not JSON', 400, '{"idToken":'],
    ['no idToken', 400, '{}'],
    ['a number', 400, '{"idToken":42}'],
    ['too short', 400, '{"idToken":"abc"}'],
    ['not a JWT', 400, `{"idToken":"${'x'.repeat(40)}"}`],
    ['a forged token', 401, '{"idToken":"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.forged-signature"}'],
  ])('answers %s with %i and writes nothing', async (_label, status, body) => {
    const { context, set } = apiContext('/api/auth/session', { method: 'POST', headers: ORIGIN, ...(body !== undefined ? { body } : {}) });
    const response = await signIn(context);
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: { field?: string } }).error).toBeTruthy();
    expect(set[SESSION_COOKIE]).toBeUndefined();
  });

  it('refuses a cross-site sign-in', async () => {
    const { idToken } = await emulatorSignUp(uniqueEmail('csrf'));
    const { context } = apiContext('/api/auth/session', {
      method: 'POST',
      headers: { ...ORIGIN, Origin: 'https://evil.example' },
      body: JSON.stringify({ idToken }),
    });
    expect((await signIn(context)).status).toBe(403);
  });
});

describe('the middleware and logout', () => {
  const run = async (path: string, cookie?: string, routePattern?: string) => {
    const { context } = apiContext(path, { ...(cookie ? { cookies: { [SESSION_COOKIE]: cookie } } : {}), ...(routePattern ? { routePattern } : {}) });
    const response = (await onRequest(context, async () => new Response('page', { status: 200 }))) as Response;
    return { response, locals: context.locals };
  };

  it('puts the verified session on locals and applies the policy', async () => {
    const { cookie, account } = await signInThroughEndpoint();
    // A brand-new account is in its trial: full access.
    const gated = await run('/crude/Naphtha', cookie!.value, '/crude/[slug]');
    expect(gated.response.status).toBe(200);
    expect(gated.locals.session).toMatchObject({ uid: account.uid, entitlement: 'full', inTrial: true });

    // The trial over (created a month ago): pages redirect, the data API answers 403 JSON.
    await (await store()).updateUsersBy('uid', account.uid, { createdAt: '01-01-2020' });
    const page = await run('/crude/Naphtha', cookie!.value, '/crude/[slug]');
    expect(page.response.status).toBe(302);
    expect(page.response.headers.get('Location')).toBe('/subscription?locked=feedstock');
    const api = await run('/api/feedstock?name=Crude', cookie!.value, '/api/feedstock');
    expect(api.response.status).toBe(403);
    expect(await api.response.json()).toMatchObject({ error: { code: 'forbidden' } });
  });

  it('answers anonymous visitors with a redirect or a 401, and garbage cookies as anonymous', async () => {
    const page = await run('/historical-data/PP', 'garbage', '/historical-data/[slug]');
    expect(page.response.headers.get('Location')).toBe('/register?next=%2Fhistorical-data%2FPP');
    expect(page.locals.session).toBeNull();
    const api = await run('/api/historicaldata', undefined, '/api/historicaldata');
    expect(api.response.status).toBe(401);
    expect(api.response.headers.get('Content-Type')).toContain('application/json');
    const unknown = await run('/no-such-page', undefined, '/404');
    expect(unknown.response.status).toBe(200); // the 404 page itself renders; no redirect
    const unknownApi = await run('/api/no-such-endpoint', undefined, '/404');
    expect(unknownApi.response.status).toBe(404);
    expect(await unknownApi.response.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('logout revokes the session: the same cookie is anonymous afterwards', async () => {
    const { cookie } = await signInThroughEndpoint();
    const { context, set } = apiContext('/api/auth/logout', { method: 'POST', headers: ORIGIN, cookies: { [SESSION_COOKIE]: cookie!.value } });
    expect((await logout(context)).status).toBe(200);
    expect(set[SESSION_COOKIE]?.value).toBe('');
    const after = await run('/crude', cookie!.value, '/crude');
    expect(after.response.status).toBe(302);
    expect(after.locals.session).toBeNull();
  });

  it('GET /api/session shows the record and its access, without the payment signature', async () => {
    const { cookie, account } = await signInThroughEndpoint();
    await (await store()).updateUsersBy('uid', account.uid, { signature: 'secret-signature', plan: 'Basic', subscribed: true });
    const { locals } = await run('/api/session', cookie!.value, '/api/session');
    const { context } = apiContext('/api/session', { locals });
    const body = (await (await session(context)).json()) as Record<string, unknown> & { user: Record<string, unknown> };
    expect(body).toMatchObject({ entitlement: 'limited', subscribed: true, admin: false, adminPanelUrl: null });
    expect(body.user).not.toHaveProperty('signature');
  });
});

describe('the remembered revocation state', () => {
  it('notices a revocation made elsewhere once the recheck interval has passed', async () => {
    const { idToken, uid } = await emulatorSignUp(uniqueEmail('elsewhere'));
    const { cookie } = await startSession(auth(), idToken);
    const now = Date.now();
    expect((await verifySession(auth(), cookie, now))?.uid).toBe(uid);
    // Another instance signs the user out: this process is not told, but finds out by the
    // next check. (The remembered window itself: tests/unit/sessions.test.ts and, counting the
    // calls that reach the emulator, tests/integration/sessions.test.ts.) firebase-admin stamps
    // the revocation with this clock in whole seconds, and one in the second of the sign-in does
    // not revoke it: the other instance's clock reads the next second, without waiting for it.
    vi.useFakeTimers({ toFake: ['Date'], now: (authTimeOf(cookie) + 1) * 1000 + 300, shouldAdvanceTime: true });
    try {
      await auth().revokeRefreshTokens(uid);
    } finally {
      vi.useRealTimers();
    }
    expect(await verifySession(auth(), cookie, now + REVOCATION_RECHECK_MS + 1)).toBeNull();
  });

  it('refuses a disabled account', async () => {
    const { idToken, uid } = await emulatorSignUp(uniqueEmail('disabled'));
    const { cookie } = await startSession(auth(), idToken);
    await auth().updateUser(uid, { disabled: true });
    expect(await verifySession(auth(), cookie, Date.now() + REVOCATION_RECHECK_MS + 1)).toBeNull();
  });
});
