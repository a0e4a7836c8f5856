/**
 * Sessions against the real Auth emulator, reached through a loopback TCP proxy this file can
 * cut and restore: what a request costs (issue 14), Auth and store outages (issue 15, finding 1),
 * and exact sign-out (finding 4). "Another instance" is another firebase-admin app: its own
 * session memory, the same emulator.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { initializeApp } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { APIContext } from 'astro';
import { GET as sessionEndpoint } from '../../src/pages/api/session.ts';
import { createAccessMiddleware } from '../../src/server/lanes/astroLane.ts';
import { signInHandler, signOutHandler } from '../../src/server/auth/endpoints.ts';
import {
  AUTH_OUTAGE_GRACE_MS,
  OUTAGE_RETRY_MS,
  REVOCATION_RECHECK_MS,
  SESSION_COOKIE,
  sessionVerifier,
  startSession,
  verifySession,
} from '../../src/server/auth/sessions.ts';
import { createHealthCheck } from '../../src/server/health.ts';
import { createMailer } from '../../src/server/mail/mailer.ts';
import { createRazorpayGateway } from '../../src/server/payments/razorpay.ts';
import { createSandboxGateway } from '../../src/server/payments/sandbox.ts';
import { auth as runtimeAuth, store as runtimeStore } from '../../src/server/runtime.ts';
import { openFirestoreStore, openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { USER_RECORD_BOUND_MS } from '../../src/server/store/userCache.ts';
import { TEST_DATA_DIR, TEST_EMULATOR_HOST } from './env.ts';
import { apiContext, emulatorSignUp, uniqueEmail } from './helpers.ts';
import { freshProjectId, suiteFirestore } from '../support/firestore.ts';
import { startTcpProxy, type TcpProxy } from './tcpProxy.ts';
import { shiftClockTo } from '../support/shiftedClock.ts';

const ORIGIN = { Origin: 'http://127.0.0.1:4321', 'Content-Type': 'application/json' };

let instances = 0;
/**
 * Another server instance's Auth: its own firebase-admin app (so its own session memory) that
 * talks to the emulator at `host`, with its session verifier in emulator mode (as runtime.ts
 * makes it). firebase-admin reads the emulator address once, on the app's first request, from
 * the environment.
 */
async function instanceAuth(host = TEST_EMULATOR_HOST): Promise<Auth> {
  const saved = process.env['FIREBASE_AUTH_EMULATOR_HOST'];
  process.env['FIREBASE_AUTH_EMULATOR_HOST'] = host;
  try {
    const auth = getAuth(initializeApp({ projectId: 'demo-polyindex' }, `instance-${++instances}`));
    sessionVerifier(auth, { emulator: true });
    await auth.getUser('warm-up').catch(() => undefined);
    return auth;
  } finally {
    process.env['FIREBASE_AUTH_EMULATOR_HOST'] = saved;
  }
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

async function signIn(deps: { auth: () => Auth; store: () => Promise<Store> }, email = uniqueEmail('sessions')) {
  const account = await emulatorSignUp(email);
  const { context, set } = apiContext('/api/auth/session', { method: 'POST', headers: ORIGIN, body: JSON.stringify({ idToken: account.idToken }) });
  const response = await signInHandler(deps)(context);
  return { response, cookie: set[SESSION_COOKIE]?.value, account };
}

const authTimeOf = (cookie: string): number => (JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString()) as { auth_time: number }).auth_time;

/** The site's access middleware (the request gate's Astro lane, which also names the viewer) with these dependencies. */
function middlewareWith(deps: { auth: () => Auth; store: () => Promise<Store>; now?: () => Date }) {
  const access = createAccessMiddleware(deps);
  return async (
    path: string,
    cookie?: string,
    next: (context: APIContext) => Promise<Response> = async () => new Response('page', { status: 200 }),
    clientAddress?: string,
  ) => {
    const { context } = apiContext(path, { ...(cookie ? { cookies: { [SESSION_COOKIE]: cookie } } : {}), ...(clientAddress ? { clientAddress } : {}) });
    const response = (await access(context, () => next(context))) as Response;
    return { response, locals: context.locals };
  };
}

/** GET /api/session as the site answers it, after the middleware. */
const sessionAnswer = (context: APIContext) => Promise.resolve(sessionEndpoint(context));

const logged = (spy: { mock: { calls: unknown[][] } }, pattern: RegExp) => spy.mock.calls.filter((call) => pattern.test(String(call[0]))).length;

let proxy: TcpProxy;
beforeAll(async () => {
  proxy = await startTcpProxy(TEST_EMULATOR_HOST);
});
afterAll(async () => {
  await proxy.close();
});
/** Puts back the real clock if a test moved it (and failed before it did so itself). */
let restoreClock = (): void => undefined;
afterEach(async () => {
  restoreClock();
  restoreClock = () => undefined;
  vi.useRealTimers();
  vi.restoreAllMocks();
  await proxy.setMode('open');
});

describe('what a request costs (issue 14)', () => {
  it('a sign-in costs two calls; a verified cookie none; the revocation state one per user and 30 s', async () => {
    const auth = await instanceAuth(proxy.host);
    const { idToken, uid } = await emulatorSignUp(uniqueEmail('cost'));
    proxy.resetCount();
    const { cookie } = await startSession(auth, idToken);
    expect(proxy.requests).toBe(2); // the ID token's user look-up, then the session cookie

    proxy.resetCount();
    const now = Date.now();
    for (let i = 0; i < 200; i++) expect((await verifySession(auth, cookie, now + i))?.uid).toBe(uid);
    expect(proxy.requests).toBe(1); // the revocation state, once
    for (let i = 0; i < 200; i++) await verifySession(auth, cookie, now + REVOCATION_RECHECK_MS + i);
    expect(proxy.requests).toBe(2);
  });

  it('a signed-in page view through the middleware asks Firebase nothing once the state is known', async () => {
    const auth = await instanceAuth(proxy.host);
    const { cookie } = await signIn({ auth: () => auth, store: runtimeStore });
    const view = middlewareWith({ auth: () => auth, store: runtimeStore });
    await view('/crude/Naphtha', cookie);
    proxy.resetCount();
    for (let i = 0; i < 50; i++) expect((await view('/crude/Naphtha', cookie)).response.status).toBe(200);
    expect(proxy.requests).toBe(0);
  });

  it('keeps the user record per process: a plan granted on another instance counts on the next request, a lapse within the bound', async () => {
    // This instance's store, its record cache on a clock the test moves (docs/decisions.md, "User records").
    let clock = 0;
    const url = sqliteUrlFor(resolve(TEST_DATA_DIR));
    const here = await openStore({ url, userCache: { now: () => clock, refreshAtMs: USER_RECORD_BOUND_MS } });
    const elsewhere = await openStore({ url });
    try {
      const deps = { auth: runtimeAuth, store: async () => here };
      const { cookie, account } = await signIn(deps);
      const view = middlewareWith(deps);
      expect((await view('/crude/Naphtha', cookie)).locals.session).toMatchObject({ entitlement: 'full', inTrial: true });
      // The trial ends on another instance: this one may keep its copy for the bound, no longer.
      await elsewhere.updateUsersBy('uid', account.uid, { createdAt: '01-01-2020' });
      expect((await view('/crude/Naphtha', cookie)).response.status).toBe(200);
      clock += USER_RECORD_BOUND_MS;
      expect((await view('/crude/Naphtha', cookie)).response.headers.get('Location')).toBe('/subscription?locked=feedstock');
      // A plan bought on another instance opens the door on the next request here: a refusal
      // is checked against the store first (the clock has not moved).
      await elsewhere.updateUsersBy('uid', account.uid, { subscribed: true, plan: 'Premium', expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
      expect((await view('/crude/Naphtha', cookie)).response.status).toBe(200);
    } finally {
      await here.close();
      await elsewhere.close();
    }
  });
});

describe('an Auth outage (issue 15, finding 1)', () => {
  it('keeps a signed-in visitor on the last known state for 15 minutes, answers sign-ins 503, and logs once each way', async () => {
    const errors = vi.spyOn(console, 'error');
    const warnings = vi.spyOn(console, 'warn');
    const auth = await instanceAuth(proxy.host);
    const deps = { auth: () => auth, store: runtimeStore };
    const { cookie, account } = await signIn(deps);
    let clock = Date.now();
    const view = middlewareWith({ ...deps, now: () => new Date(clock) });
    expect((await view('/crude/Naphtha', cookie)).response.status).toBe(200);

    await proxy.setMode('refuse');
    clock += REVOCATION_RECHECK_MS + 1; // the state is due a re-check, and Firebase cannot be asked
    const page = await view('/crude/Naphtha', cookie);
    expect(page.response.status).toBe(200);
    expect(page.locals.session).toMatchObject({ uid: account.uid });
    expect((await view('/api/feedstock?name=Crude', cookie)).response.status).toBe(200);

    const refused = await signIn(deps);
    expect(refused.response.status).toBe(503);
    expect(refused.response.headers.get('Retry-After')).toBe('60');
    expect(await refused.response.json()).toEqual({ error: { code: 'auth_unavailable', message: 'Sign-in is unavailable, try again in a few minutes.' } });
    expect(refused.cookie).toBeUndefined();

    // The grace is over: not "signed out", but 503 (page and JSON); public pages still open.
    clock += AUTH_OUTAGE_GRACE_MS;
    const after = await view('/crude/Naphtha', cookie);
    expect(after.response.status).toBe(503);
    expect(await after.response.text()).toBe('rewritten to /unavailable');
    expect(after.locals.unavailable).toBe('auth');
    expect(after.response.headers.get('Location')).toBeNull();
    const api = await view('/api/feedstock?name=Crude', cookie);
    expect(api.response.status).toBe(503);
    expect(await api.response.json()).toMatchObject({ error: { code: 'auth_unavailable' } });
    const home = await view('/', cookie);
    expect(home.response.status).toBe(200);
    expect(home.locals.session).toBeNull();
    // …but not as anonymous: who it is could not be checked, and every answer says so.
    expect(home.locals.sessionUnchecked).toBe('auth');
    expect(home.response.headers.get('X-PolyIndex-Viewer')).toBeNull();
    expect(after.response.headers.get('X-PolyIndex-Viewer')).toBeNull();
    const who = await view('/api/session', cookie, sessionAnswer);
    expect(who.response.status).toBe(503);
    expect(who.response.headers.get('Retry-After')).toBe('60');
    expect(who.response.headers.get('Cache-Control')).toBe('private, no-store');
    expect(who.response.headers.get('X-PolyIndex-Viewer')).toBeNull();
    expect(await who.response.json()).toEqual({ error: { code: 'auth_unavailable', message: 'Sign-in is unavailable, try again in a few minutes.' } });
    // A visitor without a cookie is still simply anonymous.
    const nobody = await view('/api/session', undefined, sessionAnswer);
    expect(await nobody.response.json()).toEqual({ user: null, entitlement: 'anonymous' });
    expect(nobody.response.headers.get('X-PolyIndex-Viewer')).toBe('anonymous');
    expect(logged(errors, /^\[auth\] cannot be reached/)).toBe(1);
    expect(logged(warnings, /^\[auth\] reachable again/)).toBe(0);

    await proxy.setMode('open');
    clock += OUTAGE_RETRY_MS;
    expect((await view('/crude/Naphtha', cookie)).response.status).toBe(200);
    expect((await view('/api/session', cookie, sessionAnswer)).response.status).toBe(200);
    expect(logged(warnings, /^\[auth\] reachable again/)).toBe(1);
    expect(logged(errors, /^\[auth\] cannot be reached/)).toBe(1);
  });

  it('gives a Firebase that accepts connections and never answers ten seconds', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const auth = await instanceAuth(proxy.host);
    const { idToken } = await emulatorSignUp(uniqueEmail('hang'));
    await proxy.setMode('hang');
    // The cause is our timeout: that is what ended the wait.
    await expect(startSession(auth, idToken)).rejects.toMatchObject({ dependency: 'auth', cause: { code: 'polyindex/timeout' } });
  });
});

describe('a store outage (issue 15, finding 1)', () => {
  it('answers a signed-in visitor 503 when the store cannot be reached, never a redirect to /register', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { cookie } = await signIn({ auth: runtimeAuth, store: runtimeStore });
    const dead = `http://127.0.0.1:${await closedPort()}`; // a libSQL server that is not there
    const view = middlewareWith({ auth: runtimeAuth, store: () => openStore({ url: dead }) });

    const page = await view('/crude/Naphtha', cookie);
    expect(page.response.status).toBe(503);
    expect(page.locals.unavailable).toBe('store');
    expect(page.response.headers.get('Location')).toBeNull();
    expect(page.response.headers.get('Retry-After')).toBe('60');
    const api = await view('/api/feedstock?name=Crude', cookie);
    expect(api.response.status).toBe(503);
    expect(await api.response.json()).toEqual({
      error: { code: 'store_unavailable', message: 'PolyIndex cannot reach its data right now. Please try again in a few minutes.' },
    });
    // A public path with the cookie: served, but the visitor is not taken for anonymous.
    const who = await view('/api/session', cookie, sessionAnswer);
    expect(who.locals.sessionUnchecked).toBe('store');
    expect(who.response.status).toBe(503);
    expect(who.response.headers.get('X-PolyIndex-Viewer')).toBeNull();
    expect(await who.response.json()).toMatchObject({ error: { code: 'store_unavailable' } });
    expect(page.response.headers.get('X-PolyIndex-Viewer')).toBeNull();
    // Anonymous visitors: public pages open (they never touch the store here), gated ones sign in.
    expect((await view('/')).response.status).toBe(200);
    expect((await view('/crude/Naphtha')).response.headers.get('Location')).toBe('/register?next=%2Fcrude%2FNaphtha');
    // A page that fails on its own store read while the store is down: 503, not 500.
    const failing = await view('/news', undefined, async () => {
      throw new Error('fetch failed');
    });
    expect(failing.response.status).toBe(503);
    // A failure that is not the store's stays a failure.
    await expect(
      middlewareWith({ auth: runtimeAuth, store: runtimeStore })('/news', undefined, async () => {
        throw new Error('a bug');
      }),
    ).rejects.toThrow('a bug');
  });

  it('answers 503 within ten seconds when Firestore stops answering, and serves again when it is back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // The run's Firestore (Google's emulator or the stand-in) behind a proxy this test cuts.
    const firestoreProxy = await startTcpProxy(suiteFirestore().host);
    // Its record cache on a clock the test moves: within the bound a signed-in visitor is served
    // from the copy; past it the users version must be read (docs/decisions.md, "User records").
    let clock = 0;
    const firestore = await openFirestoreStore({ projectId: freshProjectId('outage'), emulatorHost: firestoreProxy.host, userCache: { now: () => clock } });
    try {
      const deps = { auth: runtimeAuth, store: async () => firestore };
      const { cookie } = await signIn(deps);
      const view = middlewareWith(deps);
      expect((await view('/crude/Naphtha', cookie)).response.status).toBe(200);
      await firestoreProxy.setMode('refuse');
      const errors = vi.mocked(console.error);
      errors.mockClear();
      clock += USER_RECORD_BOUND_MS;
      expect((await view('/crude/Naphtha', cookie)).response.status).toBe(503);
      // The cause is our bound on the read: that is what ended the wait.
      expect(logged(errors, /^\[store\] cannot be reached \(polyindex\/timeout/)).toBe(1);
      await firestoreProxy.setMode('open');
      await vi.waitFor(
        async () => {
          clock += USER_RECORD_BOUND_MS; // time passes between tries, as between a visitor's requests
          expect((await view('/crude/Naphtha', cookie)).response.status).toBe(200);
        },
        { timeout: 30_000, interval: 500 },
      );
    } finally {
      await firestore.close();
      await firestoreProxy.close();
    }
  }, 90_000);
});

describe('exact sign-out (issue 15, finding 4)', () => {
  it('refuses a cookie signed out in the second of its sign-in: here at once, on other instances within the bound', async () => {
    const { cookie } = await signIn({ auth: runtimeAuth, store: runtimeStore });
    const authTime = authTimeOf(cookie!);
    const other = await instanceAuth(); // another instance, which has seen the session
    expect(await verifySession(other, cookie)).not.toBeNull();
    const otherKnewAt = Date.now();

    // Sign out in the very second of the sign-in, whatever the machine's speed: firebase-admin
    // stamps the revocation with this clock, in whole seconds. The sign-out waits for the next
    // second by it, so the clock must keep real time even on a loaded machine.
    restoreClock = shiftClockTo(authTime * 1000 + 300);
    const { context, set } = apiContext('/api/auth/logout', { method: 'POST', headers: ORIGIN, cookies: { [SESSION_COOKIE]: cookie! } });
    const response = await signOutHandler({ auth: runtimeAuth })(context);
    expect(await response.json()).toEqual({ ok: true, everywhere: true });
    expect(set[SESSION_COOKIE]?.value).toBe('');

    const here = await middlewareWith({ auth: runtimeAuth, store: runtimeStore })('/crude/Naphtha', cookie);
    expect(here.locals.session).toBeNull();
    expect(here.response.headers.get('Location')).toBe('/register?next=%2Fcrude%2FNaphtha');
    restoreClock();
    restoreClock = () => undefined;
    // An instance that never saw it refuses it; one that did, once its state is due a re-check.
    expect(await verifySession(await instanceAuth(), cookie)).toBeNull();
    expect(await verifySession(other, cookie, otherKnewAt + REVOCATION_RECHECK_MS)).toBeNull();
  });
});

describe('emulator mode serves loopback only', () => {
  it('refuses a client that is not on loopback, whatever it asks, and serves one that is', async () => {
    const { cookie } = await signIn({ auth: runtimeAuth, store: runtimeStore });
    const view = middlewareWith({ auth: runtimeAuth, store: runtimeStore });
    for (const [path, client] of [['/', '10.1.2.3'], ['/crude/Naphtha', '192.168.0.7'], ['/api/session', '::ffff:10.0.0.1'], ['/api/session', 'unknown']] as const) {
      const refused = await view(path, cookie, sessionAnswer, client);
      expect(refused.response.status, `${path} from ${client}`).toBe(403);
      expect(await refused.response.json()).toMatchObject({ error: { code: 'loopback_only' } });
      expect(refused.locals.session).toBeNull();
    }
    for (const client of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect((await view('/crude/Naphtha', cookie, undefined, client)).response.status, client).toBe(200);
    }
  });
});

describe('/api/health per dependency', () => {
  it('reports store, auth, mail and payments; only a store outage makes it 503', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const auth = await instanceAuth(proxy.host);
    let clock = Date.now();
    const outbox = createMailer({ outboxDir: `${TEST_DATA_DIR}/health-outbox`, from: 'desk@polyindex.test' });
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const check = (over: Partial<Parameters<typeof createHealthCheck>[0]> = {}) =>
      createHealthCheck({
        store: runtimeStore,
        authReachable: (now) => sessionVerifier(auth).reachable(now),
        verifyMail: () => outbox.verify(),
        pingPayments: () => createSandboxGateway('health-secret').ping(),
        now: () => clock,
        ...over,
      })();

    expect(await check()).toEqual({ ok: true, status: 'ok', dependencies: { store: 'ok', auth: 'ok', mail: 'ok', payments: 'ok' } });

    await proxy.setMode('refuse');
    clock += REVOCATION_RECHECK_MS; // nothing has asked Firebase for 30 s: the check does
    expect(await check()).toMatchObject({ ok: true, status: 'degraded', dependencies: { auth: 'degraded', store: 'ok' } });
    await proxy.setMode('open');
    clock += REVOCATION_RECHECK_MS;
    expect((await check()).dependencies.auth).toBe('ok');

    const smtp = createMailer({ smtpUrl: `smtp://127.0.0.1:${await closedPort()}`, outboxDir: TEST_DATA_DIR, from: 'desk@polyindex.test', smtpOptions: { ignoreTLS: true } });
    const razorpay = createRazorpayGateway({ keyId: 'rzp_test_k', keySecret: 's', baseUrl: `http://127.0.0.1:${await closedPort()}`, timeoutMs: 1_000 });
    expect(await check({ verifyMail: () => smtp.verify(), pingPayments: () => razorpay.ping() })).toMatchObject({
      ok: true,
      status: 'degraded',
      dependencies: { store: 'ok', mail: 'degraded', payments: 'degraded' },
    });
    smtp.close();

    expect(await check({ store: () => openStore({ url: dead }) })).toMatchObject({
      ok: false,
      status: 'unavailable',
      dependencies: { store: 'degraded' },
    });
  });
});
