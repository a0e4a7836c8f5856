/**
 * One routing table, two lanes (docs/architecture.md): every data API route of src/server/api/routes.ts
 * answers the same status, JSON body and headers through the node:http fast lane as through
 * Astro (the access middleware, then the route file), for every kind of visitor, with real
 * session cookies from the Auth emulator and a real SQLite store.
 */
import { readFileSync } from 'node:fs';
import type { APIRoute } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/lib/access/policy.ts';
import { onRequest } from '../../src/middleware.ts';
import { apiRoutes, createApiRouter } from '../../src/server/api/routes.ts';
import { sessionFromCookie } from '../../src/server/auth/currentSession.ts';
import { SESSION_COOKIE, sessionVerifier, startSession } from '../../src/server/auth/sessions.ts';
import { createSiteServer, type SiteServer } from '../../src/server/http/siteServer.ts';
import type { Endpoint } from '../../src/server/edge/endpoint.ts';
import { createFastLane } from '../../src/server/lanes/fastLane.ts';
import { auth, store } from '../../src/server/runtime.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { apiContext, emulatorSignUp, uniqueEmail } from './helpers.ts';

const year = new Date().getFullYear();
const ddmmyyyy = (d: Date) => `${String(d.getDate()).padStart(2, '0')}-${String(d.getMonth() + 1).padStart(2, '0')}-${d.getFullYear()}`;
const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
const longAgo = ddmmyyyy(new Date(Date.now() - 60 * 86_400_000));

/** Visitors, each a real emulator account with a record (the anonymous one has no cookie). */
const visitors: Record<string, Partial<UserRecord> | null> = {
  anonymous: null,
  free: { role: 'user', subscribed: false, createdAt: longAgo },
  trial: { role: 'user', subscribed: false, createdAt: ddmmyyyy(new Date()) },
  basic: { role: 'user', subscribed: true, plan: 'Basic', createdAt: longAgo, expiresAt: inAYear },
  premium: { role: 'user', subscribed: true, plan: 'Premium', createdAt: longAgo, expiresAt: inAYear },
  admin: { role: 'admin', subscribed: false, createdAt: longAgo },
};
const cookies: Record<string, string | undefined> = { garbage: 'not-a-session-cookie' };

/** Paths per route: a good request, bad input, and the variants the legacy clients send. */
const paths: Record<string, string[]> = {
  '/api/feedstock': ['/api/feedstock?name=Naphtha&country=japan', `/api/feedstock?name=naphtha&type=weekly&year=${year - 1}`, '/api/feedstock?name=Nope', '/api/feedstock', '/api/feedstock?name=Naphtha&year=1900'],
  '/api/historicaldata': ['/api/historicaldata?polymer=ppRaffia', '/api/historicaldata?polymer=PP%20Raffia', '/api/historicaldata?polymer=nope', '/api/historicaldata/'],
  '/api/internationaloffers': ['/api/internationaloffers?country=USA', '/api/internationaloffers?country=usa&month=13', '/api/internationaloffers'],
  '/api/citywise': ['/api/citywise', '/api/citywise/'],
  '/api/citywise/[city]': ['/api/citywise/mumbai', '/api/citywise/Nowhere', '/api/citywise/%20mumbai', '/api/citywise/mumbai?date=2025-01-06', '/api/citywise/mumbai?date=06-01-2025'],
  '/api/carousels': ['/api/carousels/', '/api/carousels'],
  '/api/export/[series].csv': ['/api/export/fx.usdinr.csv', '/api/export/not.a.series.csv'],
  '/api/series': ['/api/series?ids=feedstock.naphtha.japan,fx.usdinr&unit=native', '/api/series?ids=feedstock.naphtha.japan', '/api/series?ids=nope', '/api/series', '/api/series/'],
  // Today's types and the original's names; a limited section's type (buy-sell) for every signed-in account.
  '/api/blogs': [`/api/blogs?type=PlantNews&year=${year}`, '/api/blogs?type=plant-news', '/api/blogs?type=BuySell', '/api/blogs?type=gossip', '/api/blogs', '/api/blogs?type=blog&month=3'],
  // The data feed, as a signed-in visitor (cookie) calls it; keys are tests/integration/feed.test.ts's.
  '/api/v1/openapi.json': ['/api/v1/openapi.json'],
  '/api/v1/catalog': ['/api/v1/catalog'],
  '/api/v1/catalog.csv': ['/api/v1/catalog.csv'],
  '/api/v1/latest': ['/api/v1/latest?ids=fx.usdinr,feedstock.naphtha.japan', '/api/v1/latest?ids=nope', '/api/v1/latest'],
  '/api/v1/latest.csv': ['/api/v1/latest.csv?ids=fx.usdinr'],
  '/api/v1/series/[id]': [`/api/v1/series/fx.usdinr?from=${year}-01-01`, '/api/v1/series/nope'],
  '/api/v1/series/[id].csv': ['/api/v1/series/fx.usdinr.csv'],
};

/** The Astro route file of a pattern (an `index.ts` for a folder route). */
const routeFile = (pattern: string) =>
  ['/api/citywise', '/api/carousels', '/api/series'].includes(pattern) ? `src/pages${pattern}/index.ts` : `src/pages${pattern}.ts`;

let site: SiteServer;
let base: string;
const endpoints = new Map<string, APIRoute>();

beforeAll(async () => {
  const db = await store();
  for (const [name, fields] of Object.entries(visitors)) {
    if (!fields) continue;
    const email = uniqueEmail(`lanes-${name}`);
    const account = await emulatorSignUp(email);
    await db.createUser({ uid: account.uid, displayName: name, email, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: longAgo, ...fields });
    cookies[name] = (await startSession(auth(), account.idToken)).cookie;
  }
  for (const route of apiRoutes) endpoints.set(route.pattern, ((await import(/* @vite-ignore */ `../../${routeFile(route.pattern)}`)) as { GET: APIRoute }).GET);

  site = createSiteServer({
    lanes: [createFastLane({ store, session: async (cookie, now) => sessionFromCookie({ auth: auth(), store: await store() }, cookie, now), loopbackOnly: () => sessionVerifier(auth()).emulator })],
    fallback: (_req, res) => {
      res.writeHead(599);
      res.end();
    },
  });
  base = `http://127.0.0.1:${await site.listen(0, '127.0.0.1')}`;
});

afterAll(async () => {
  await site.stop({ drainMs: 1000, closers: [] });
});

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | null>;
}
const COMPARED_HEADERS = ['content-type', 'cache-control', 'etag', 'vary', 'content-disposition', 'x-content-type-options', 'referrer-policy', 'x-frame-options', 'x-polyindex-viewer'];
const answerOf = async (response: Response): Promise<Answer> => ({
  status: response.status,
  body: await response.text(),
  headers: Object.fromEntries(COMPARED_HEADERS.map((h) => [h, response.headers.get(h)])),
});

async function astroLane(pattern: string, path: string, cookie: string | undefined, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(path, 'http://127.0.0.1:4321');
  const route = apiRoutes.find((r) => r.pattern === pattern)!;
  // The parameters Astro's router would extract for this file route.
  const params: Record<string, string> = {};
  const m = /^\/api\/citywise\/([^/]+)$/.exec(url.pathname) ?? /^\/api\/export\/([^/]+)\.csv$/.exec(url.pathname);
  if (m && route.pattern.includes('[')) params[route.pattern.includes('city') ? 'city' : 'series'] = decodeURIComponent(m[1]!);
  const feedSeries = /^\/api\/v1\/series\/(.+?)(?:\.csv)?$/.exec(url.pathname);
  if (feedSeries && route.pattern.startsWith('/api/v1/series/')) params['id'] = decodeURIComponent(feedSeries[1]!);
  const { context } = apiContext(path, { cookies: cookie ? { [SESSION_COOKIE]: cookie } : {}, params, routePattern: pattern, headers });
  const response = await onRequest(context, async () => endpoints.get(pattern)!(context));
  return answerOf(response as Response);
}

async function fastLane(path: string, cookie: string | undefined, headers: Record<string, string> = {}): Promise<Answer> {
  // Identity, as the Astro lane's test context asks (fetch would ask for gzip): the compression is tests/integration/compression.test.ts's.
  return answerOf(await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity', ...headers, ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}) } }));
}

const cases = apiRoutes.flatMap((route) => {
  const routePaths = paths[route.pattern];
  if (!routePaths) throw new Error(`tests/integration/lanes.test.ts: add paths for ${route.pattern}`);
  return routePaths.flatMap((path) => [...Object.keys(visitors), 'garbage'].map((visitor) => [route.pattern, path, visitor] as const));
});

describe('the same answers in both lanes', () => {
  it.each(cases)('%s: %s as %s', async (pattern, path, visitor) => {
    const cookie = cookies[visitor];
    const [astro, fast] = await Promise.all([astroLane(pattern, path, cookie), fastLane(path, cookie)]);
    expect(fast).toEqual(astro);
    // And both are what the policy says for this visitor.
    const session = await sessionFromCookie({ auth: auth(), store: await store() }, cookie, new Date());
    const decision = decide(new URL(path, 'http://x').pathname, session, new Date(), new URL(path, 'http://x').search);
    if (decision.kind === 'deny') expect(fast.status).toBe(decision.status);
    else expect([200, 400, 404]).toContain(fast.status);
  });

  it('answers 304 to a matching If-None-Match in both lanes', async () => {
    const path = '/api/feedstock?name=Naphtha&country=japan';
    const first = await fastLane(path, cookies['premium']);
    const etag = first.headers['etag']!;
    expect(etag).toMatch(/^"/);
    const [astro, fast] = await Promise.all([
      astroLane('/api/feedstock', path, cookies['premium'], { 'If-None-Match': etag }),
      fastLane(path, cookies['premium'], { 'If-None-Match': etag }),
    ]);
    expect(fast.status).toBe(304);
    expect(fast).toEqual(astro);
  });
});

describe('each lane applies the policy itself, before any handler runs', () => {
  // Handlers that let everyone in: what is refused here is refused by the lane, not by the
  // handler's own defence-in-depth check.
  const open = apiRoutes.map((route) => ({ ...route, handler: () => new Response('{}', { headers: { 'content-type': 'application/json' } }) }));
  let openSite: SiteServer;
  let openBase: string;
  beforeAll(async () => {
    openSite = createSiteServer({
      lanes: [createFastLane({ store, router: createApiRouter(open), session: async (cookie, now) => sessionFromCookie({ auth: auth(), store: await store() }, cookie, now) })],
      fallback: (_req, res) => {
        res.writeHead(599);
        res.end();
      },
    });
    openBase = `http://127.0.0.1:${await openSite.listen(0, '127.0.0.1')}`;
  });
  afterAll(() => openSite.stop({ drainMs: 1000, closers: [] }));

  it.each(cases)('%s: %s as %s', async (pattern, path, visitor) => {
    const cookie = cookies[visitor];
    const { context } = apiContext(path, { cookies: cookie ? { [SESSION_COOKIE]: cookie } : {}, routePattern: pattern });
    const astro = (await onRequest(context, async () => new Response('{}'))) as Response;
    const fast = await fetch(`${openBase}${path}`, { headers: cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {} });
    const session = await sessionFromCookie({ auth: auth(), store: await store() }, cookie, new Date());
    const decision = decide(new URL(path, 'http://x').pathname, session, new Date(), new URL(path, 'http://x').search);
    const expected = decision.kind === 'deny' ? decision.status : 200;
    expect(astro.status).toBe(expected);
    expect(fast.status).toBe(expected);
    expect(await fast.text()).toBe(await astro.text());
  });
});

describe('the Astro route files bind the endpoints of the table', () => {
  it.each(apiRoutes.map((r) => [r.pattern]))('%s', (pattern) => {
    // The route file re-exports the endpoint whose handler is the table's row: one handler, two lanes.
    expect(readFileSync(routeFile(pattern), 'utf8')).toMatch(/^export \{ \w+ as GET \} from '(\.\.\/)+server\/(api|feed)\/endpoints\.ts';$/m);
    expect((endpoints.get(pattern) as unknown as Endpoint).handle).toBe(apiRoutes.find((r) => r.pattern === pattern)!.handler);
  });

  it('the fast lane passes everything else on', async () => {
    for (const path of ['/api/session', '/api/health', '/api/admin/users', '/crude/Naphtha', '/api/carousels/images/x.png', '/api/feedstockx']) {
      expect((await fetch(`${base}${path}`)).status, path).toBe(599);
    }
    expect((await fetch(`${base}/api/feedstock?name=Naphtha`, { method: 'POST' })).status).toBe(599);
  });
});
