/**
 * The request gate's screen (src/server/edge/screen.ts) in both lanes, against the real emulator
 * and the site's SQLite store: issue 24's probe findings 2 and 5.
 *
 * 2. DNS rebinding. In emulator mode the session cookie is unsigned, so a page of
 *    `attacker.example` (whose name the attacker points at 127.0.0.1) can post a forged admin
 *    cookie with `Host: attacker.example:<port>` and a matching Origin: the same-origin checks
 *    compare Origin with that Host, so they passed, and the change was made. Now in
 *    loopback-only mode the Host must be a loopback name and the served port: 421 otherwise.
 * 5. TRACE on any page, and a Host with credentials (`a@b`) on an Astro route, were 500s with a
 *    stack trace in the log (Astro cannot build a Request for them). Now 501 and 400, answered
 *    before Astro, and nothing is logged.
 */
import { request as httpRequest } from 'node:http';
import type { APIContext } from 'astro';
import { createRequestFromNodeRequest } from 'astro/app/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { onRequest } from '../../src/middleware.ts';
import { POST as setRole } from '../../src/pages/api/admin/users/[uid]/role.ts';
import { sessionFromCookie } from '../../src/server/auth/currentSession.ts';
import { SESSION_COOKIE, startSession } from '../../src/server/auth/sessions.ts';
import { createSiteServer, type SiteServer } from '../../src/server/http/siteServer.ts';
import { createEdgeScreen, createFastLane } from '../../src/server/lanes/fastLane.ts';
import { auth, store } from '../../src/server/runtime.ts';
import { emulatorSignUp, uniqueEmail, userRecordOf } from './helpers.ts';

const PROJECT = 'demo-polyindex';
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** What an attacker can make without any secret in emulator mode: an unsigned session cookie for any uid. */
function forgedCookie(uid: string): string {
  const now = Math.floor(Date.now() / 1000);
  // A sign-in "after" any revocation of the account: nothing but the emulator's word checks it.
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: `https://session.firebase.google.com/${PROJECT}`, aud: PROJECT, sub: uid, iat: now, auth_time: now + 5, exp: now + 3600 })}.`;
}

let adminUid = '';
let premiumCookie = '';

beforeAll(async () => {
  const db = await store();
  const admin = await emulatorSignUp(uniqueEmail('edge-admin'));
  adminUid = admin.uid;
  await db.createUser(userRecordOf(admin.uid, { role: 'admin' }));
  const premium = await emulatorSignUp(uniqueEmail('edge-premium'));
  await db.createUser(userRecordOf(premium.uid, { subscribed: true, plan: 'Premium', expiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString() }));
  premiumCookie = (await startSession(auth(), premium.idToken)).cookie;
});

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * An Astro context as the node adapter builds it for a request that says `Host: host`: the URL
 * (and so `Astro.url.origin`, which the same-origin checks compare Origin with) comes from it.
 */
function astroContext(host: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string; cookie?: string; params?: Record<string, string> } = {}): APIContext {
  const url = new URL(path, `http://${host}`);
  const request = new Request(url, { method: init.method ?? 'GET', headers: { host, ...init.headers }, ...(init.body === undefined ? {} : { body: init.body }) });
  const jar = new Map(init.cookie ? [[SESSION_COOKIE, init.cookie]] : []);
  return {
    url,
    request,
    params: init.params ?? {},
    locals: { session: null },
    isPrerendered: false,
    routePattern: '/api/admin/users/[uid]/role',
    clientAddress: '127.0.0.1',
    cookies: { get: (name: string) => (jar.has(name) ? { value: jar.get(name)! } : undefined), has: (name: string) => jar.has(name), set: () => undefined, delete: () => undefined },
    redirect: (to: string, status = 302) => new Response(null, { status, headers: { Location: to } }),
    rewrite: async (to: string) => new Response(`rewritten to ${to}`, { status: to === '/404' ? 404 : 200 }),
  } as unknown as APIContext;
}

describe('finding 2: a DNS-rebinding page cannot use the emulator’s unsigned cookies (the Astro lane)', () => {
  /** A user the attacker would make an administrator, through the site's real middleware and endpoint. */
  async function promoteThrough(host: string): Promise<{ response: Response; role: string | null | undefined }> {
    const target = userRecordOf(`edge-target-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
    const db = await store();
    await db.createUser(target);
    const context = astroContext(host, `/api/admin/users/${target.uid}/role`, {
      method: 'POST',
      headers: { origin: `http://${host}`, 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'admin' }),
      cookie: forgedCookie(adminUid),
      params: { uid: target.uid },
    });
    const response = (await onRequest(context, async () => setRole(context))) as Response;
    return { response, role: (await db.findUserBy('uid', target.uid))?.role };
  }

  it('refuses Host: attacker.example with 421 (JSON) and changes nothing', async () => {
    const { response, role } = await promoteThrough('attacker.example:4321');
    expect(response.status).toBe(421);
    expect(await response.json()).toMatchObject({ error: { code: 'misdirected_request' } });
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(role).toBe('user');
  });

  it('refuses a loopback name on another port', async () => {
    const { response, role } = await promoteThrough('127.0.0.1:9');
    expect(response.status).toBe(421);
    expect(role).toBe('user');
  });

  it('serves the site at its own loopback names and port (the forged cookie is the emulator’s own weakness, loopback only)', async () => {
    for (const host of ['127.0.0.1:4321', 'localhost:4321']) {
      const { response, role } = await promoteThrough(host);
      expect(response.status, host).toBe(200);
      expect(role, host).toBe('admin');
    }
  });
});

/** A request with any Host header (fetch would set its own), to `port` on loopback. */
function send(port: number, path: string, { method = 'GET', host, cookie }: { method?: string; host: string; cookie?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { host, ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The server entry's lanes (src/server/entry/serve.ts): the fast lane, then the screen, then what
 * stands for Astro here: its node adapter's own Request builder (which throws for TRACE and for a
 * Host with credentials), then 599.
 */
async function siteWith(loopbackOnly: boolean): Promise<{ site: SiteServer; port: number; reachedAstro: () => number }> {
  let astro = 0;
  const site = createSiteServer({
    lanes: [
      createFastLane({ store, session: (cookie, now, options) => sessionFromCookie({ auth: auth(), store }, cookie, now, options), loopbackOnly: () => loopbackOnly }),
      createEdgeScreen({ loopbackOnly: () => loopbackOnly }),
    ],
    fallback: (req, res) => {
      astro++;
      createRequestFromNodeRequest(req);
      res.writeHead(599);
      res.end();
    },
  });
  return { site, port: await site.listen(0, '127.0.0.1'), reachedAstro: () => astro };
}

describe('finding 2 in the fast lane, and finding 5 (the node lanes in front of Astro)', () => {
  let loopbackOnly: Awaited<ReturnType<typeof siteWith>>;
  let open: Awaited<ReturnType<typeof siteWith>>;
  beforeAll(async () => {
    loopbackOnly = await siteWith(true);
    open = await siteWith(false);
  });
  afterAll(async () => {
    await loopbackOnly?.site.stop({ drainMs: 1000, closers: [] });
    await open?.site.stop({ drainMs: 1000, closers: [] });
  });

  it('answers the data API only for its loopback name and port in loopback-only mode', async () => {
    const { port } = loopbackOnly;
    const path = '/api/feedstock?name=Naphtha&country=japan';
    const forged = await send(port, path, { host: `attacker.example:${port}`, cookie: premiumCookie });
    expect(forged.status).toBe(421);
    expect(JSON.parse(forged.body)).toMatchObject({ error: { code: 'misdirected_request' } });
    expect((await send(port, path, { host: `127.0.0.1:${port + 1}`, cookie: premiumCookie })).status).toBe(421);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) expect((await send(port, path, { host, cookie: premiumCookie })).status, host).toBe(200);
  });

  it('screens what it passes on too: a page asked for at another name never reaches Astro', async () => {
    const before = loopbackOnly.reachedAstro();
    expect((await send(loopbackOnly.port, '/news', { host: `attacker.example:${loopbackOnly.port}` })).status).toBe(421);
    expect(loopbackOnly.reachedAstro()).toBe(before);
    expect((await send(loopbackOnly.port, '/news', { host: `127.0.0.1:${loopbackOnly.port}` })).status).toBe(599);
  });

  it('serves any Host when not in loopback-only mode (behind a proxy the Host is the public name)', async () => {
    expect((await send(open.port, '/api/carousels/', { host: 'polyindex.example' })).status).toBe(200);
    expect((await send(open.port, '/news', { host: 'polyindex.example' })).status).toBe(599);
  });

  it('TRACE is 501 on any path, in either lane, and nothing is logged', async () => {
    const logged = vi.spyOn(console, 'error');
    const before = open.reachedAstro();
    for (const path of ['/', '/news', '/api/feedstock?name=Naphtha', '/api/session']) {
      const answer = await send(open.port, path, { method: 'TRACE', host: `127.0.0.1:${open.port}` });
      expect(answer.status, path).toBe(501);
      expect(JSON.parse(answer.body)).toEqual({ error: { code: 'method_not_supported', message: 'This server does not support TRACE requests.' } });
    }
    expect(open.reachedAstro()).toBe(before);
    expect(logged).not.toHaveBeenCalled();
  });

  it('a Host that is no host name is 400 and never reaches Astro; every Host that passes builds Astro’s Request', async () => {
    const logged = vi.spyOn(console, 'error');
    const before = open.reachedAstro();
    for (const host of ['a@b', 'user:pass@127.0.0.1', 'a/b', 'ex%zz', 'a:99999', '[::1', 'a?b', 'a#b', 'a\\b']) {
      const answer = await send(open.port, '/news', { host });
      expect(answer.status, host).toBe(400);
      expect(JSON.parse(answer.body), host).toMatchObject({ error: { code: 'bad_host' } });
    }
    expect(open.reachedAstro()).toBe(before);
    // What passes the screen, Astro can build a Request for (the fallback would throw otherwise: a 500 and a log line).
    for (const host of ['polyindex.example', 'POLYINDEX.example:80', 'a_b.example', 'xn--bcher-kva.example:8443', '[::1]:4321', '127.0.0.1']) {
      expect((await send(open.port, '/news', { host })).status, host).toBe(599);
    }
    expect(logged).not.toHaveBeenCalled();
  });
});
