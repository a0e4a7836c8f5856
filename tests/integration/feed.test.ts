/**
 * The data feed end to end over HTTP, on two instances of the site (two fast lanes, each with its
 * own handle and user-record copy of one SQLite store, as two server processes hold it): a key is
 * made, used and revoked (refused at once on the other instance); a lapsed plan's key and a plan
 * without the feed are refused; a key in a URL works for CSV only and only when allowed; CSV is
 * what spreadsheets expect; ETags; the rate limit across instances; and a key never shows up in a
 * log, the audit trail or an error. The Astro lane gives the same answers (the same gate).
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { APIContext } from 'astro';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessionFromCookie } from '../../src/server/auth/currentSession.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { feedLatest, idsParamOf } from '../../src/server/feed/endpoints.ts';
import { hashKey, mintKey } from '../../src/server/feed/keys.ts';
import { createKey, keyPageData, revokeKey } from '../../src/server/feed/manage.ts';
import { createSiteServer, type SiteServer } from '../../src/server/http/siteServer.ts';
import { createAccessMiddleware } from '../../src/server/lanes/astroLane.ts';
import { createFastLane } from '../../src/server/lanes/fastLane.ts';
import { auth } from '../../src/server/runtime.ts';
import { openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { findSeries } from '../../src/lib/seriesCatalog.ts';
import { TEST_DATA_DIR } from './env.ts';
import { userRecordOf } from './helpers.ts';

const YEAR_AHEAD = () => new Date(Date.now() + 365 * 86_400_000).toISOString();
const NAPHTHA = 'feedstock.naphtha.japan';
const FX = 'fx.usdinr';

let stores: Store[] = [];
let sites: SiteServer[] = [];
let ports: number[] = [];

const sessionFor = async (store: Store, uid: string): Promise<Session> => {
  const record = await store.findUserBy('uid', uid);
  return { uid, email: record?.email ?? null, record, entitlement: 'full', inTrial: false };
};

beforeAll(async () => {
  const url = sqliteUrlFor(mkdtempSync(join(TEST_DATA_DIR, 'feed-')));
  stores = [await openStore({ url }), await openStore({ url })];
  const db = stores[0]!;
  await db.upsertSeries([findSeries(NAPHTHA)!, findSeries(FX)!]);
  await db.upsertPoints([
    { seriesId: NAPHTHA, date: '2026-11-20', value: 612.5 },
    { seriesId: NAPHTHA, date: '2026-11-23', value: 618.25 },
    { seriesId: NAPHTHA, date: '2026-11-24', value: 615 },
    { seriesId: FX, date: '2026-11-23', value: 84.1234 },
    { seriesId: FX, date: '2026-11-24', value: 84.2 },
  ]);
  await db.createUser(userRecordOf('feed-platinum', { subscribed: true, plan: 'Platinum', expiresAt: YEAR_AHEAD() }));
  await db.createUser(userRecordOf('feed-other', { subscribed: true, plan: 'Platinum', expiresAt: YEAR_AHEAD() }));
  await db.createUser(userRecordOf('feed-premium', { subscribed: true, plan: 'Premium', expiresAt: YEAR_AHEAD() }));
  for (const store of stores) {
    const site = createSiteServer({
      lanes: [createFastLane({ store: async () => store, session: (cookie, now, options) => sessionFromCookie({ auth: auth(), store }, cookie, now, options) })],
      fallback: (_req, res) => {
        res.writeHead(599);
        res.end();
      },
    });
    sites.push(site);
    ports.push(await site.listen(0, '127.0.0.1'));
  }
});

afterAll(async () => {
  for (const site of sites) await site.stop({ drainMs: 1000, closers: [] });
  for (const store of stores) await store.close();
  sites = [];
  stores = [];
  ports = [];
});

/** A GET; once more if the pooled connection was closed by the server's keep-alive timeout as it was reused (the request never arrived). */
async function get(instance: 0 | 1, path: string, headers: Record<string, string> = {}): Promise<Response> {
  const url = `http://127.0.0.1:${ports[instance]}${path}`;
  try {
    return await fetch(url, { headers });
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
    return fetch(url, { headers });
  }
}
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A new Platinum account of the test's own (each may hold only a few keys). */
async function platinumUser(): Promise<string> {
  const uid = `feed-${Math.random().toString(36).slice(2, 10)}`;
  await stores[0]!.createUser(userRecordOf(uid, { subscribed: true, plan: 'Platinum', expiresAt: YEAR_AHEAD() }));
  return uid;
}

async function newKey(owner?: string, urlKey = false): Promise<string> {
  const uid = owner ?? (await platinumUser());
  const made = await createKey(stores[0]!, await sessionFor(stores[0]!, uid), { name: `sheet ${Math.random().toString(36).slice(2, 6)}`, urlKey }, new Date());
  if (made.kind !== 'created') throw new Error(made.kind);
  return made.key;
}

describe('a key, made, used and revoked, on two instances', () => {
  it('reads the feed with a key on either instance, and a revoked key is refused at once on the other', async () => {
    const owner = await platinumUser();
    const key = await newKey(owner);
    for (const instance of [0, 1] as const) {
      const answer = await get(instance, `/api/v1/latest?ids=${NAPHTHA},${FX}`, bearer(key));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('private, no-cache');
      expect(answer.headers.get('x-ratelimit-limit')).toBe('60');
      const body = (await answer.json()) as { series: { id: string; value: number; change: number; date: string }[] };
      expect(body.series[0]).toMatchObject({ id: NAPHTHA, date: '2026-11-24', value: 615, previousValue: 618.25, change: -3.25 });
      expect(body.series[1]).toMatchObject({ id: FX, value: 84.2, previousValue: 84.1234 });
    }
    const id = key.split('_')[1]!;
    expect(await revokeKey(stores[0]!, await sessionFor(stores[0]!, owner), id, new Date())).toBe(true);
    const refused = await get(1, `/api/v1/latest?ids=${NAPHTHA}`, bearer(key));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const text = await refused.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'invalid_api_key' } });
    expect(text).not.toContain(key);
  });

  it('refuses a mistyped key, no key, and a key sent on a write', async () => {
    const key = await newKey();
    expect((await get(0, '/api/v1/catalog', bearer(`${key.slice(0, -1)}x`))).status).toBe(401);
    expect(await (await get(0, '/api/v1/catalog')).json()).toMatchObject({ error: { code: 'unauthenticated' } });
    const write = await fetch(`http://127.0.0.1:${ports[0]}/api/v1/catalog`, { method: 'POST', headers: bearer(key) });
    expect(write.status).not.toBe(200);
  });

  it('acts with the owner\'s rights at the moment of the request: a lapsed plan is refused, a plan without the feed too', async () => {
    const key = await newKey('feed-other');
    expect((await get(1, '/api/v1/catalog', bearer(key))).status).toBe(200);
    const db = stores[0]!;
    await db.updateUsersBy('uid', 'feed-other', { expiresAt: new Date(Date.now() - 60_000).toISOString() });
    const lapsed = await get(1, '/api/v1/catalog', bearer(key));
    expect(lapsed.status).toBe(403);
    expect(await lapsed.json()).toMatchObject({ error: { code: 'forbidden', message: expect.stringContaining('Platinum') } });
    // Premium has no feed: no key can be made, and a key that exists anyway is refused.
    expect((await createKey(db, await sessionFor(db, 'feed-premium'), { name: 'x', urlKey: false }, new Date())).kind).toBe('no_feed');
    const { key: forced, id } = mintKey();
    await db.createApiKey({ id, ownerUid: 'feed-premium', name: 'forced', hash: hashKey(forced), createdAt: new Date().toISOString(), urlKey: false, ratePerMinute: 60, monthlyQuota: 100 }, { uid: 'test', email: null });
    expect((await get(0, '/api/v1/catalog', bearer(forced))).status).toBe(403);
  });
});

describe('formats and caching', () => {
  it('answers CSV by Accept or by .csv: BOM, one header row, CRLF, ISO dates, . decimals', async () => {
    const key = await newKey();
    const byAccept = await get(0, `/api/v1/series/${NAPHTHA}?from=2026-11-01&to=2026-11-30`, { ...bearer(key), accept: 'text/csv' });
    const bySuffix = await get(1, `/api/v1/series/${NAPHTHA}.csv?from=2026-11-01&to=2026-11-30`, bearer(key));
    for (const answer of [byAccept, bySuffix]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const bytes = new Uint8Array(await answer.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(
        `\uFEFFseries,date,value,unit\r\n${NAPHTHA},2026-11-20,612.5,US$/t\r\n${NAPHTHA},2026-11-23,618.25,US$/t\r\n${NAPHTHA},2026-11-24,615,US$/t\r\n`,
      );
    }
    const catalog = await (await get(0, '/api/v1/catalog.csv', bearer(key))).text();
    expect(catalog.split('\r\n')[0]).toBe('id,name,family,unit,currency,frequency,basis');
    expect(catalog).toContain('fx.usdinr,US dollar to Indian rupee,fx,₹/US$,INR,daily,');
  });

  it('converts on request and names the 400s and 404s in the site\'s error shape', async () => {
    const key = await newKey();
    const converted = (await (await get(0, `/api/v1/series/${NAPHTHA}?from=2026-11-20&to=2026-11-24&unit=inr_kg`, bearer(key))).json()) as { unit: string; points: { value: number }[] };
    expect(converted.unit).toBe('₹/kg');
    expect(converted.points.length).toBeGreaterThan(0);
    expect(await (await get(0, '/api/v1/series/no.such.series', bearer(key))).json()).toEqual({ error: { code: 'not_found', message: expect.any(String), field: 'id' } });
    for (const [query, field] of [['from=2026-13-01', 'from'], ['unit=kg', 'unit'], ['from=2026-11-24&to=2026-11-01', 'from']] as const) {
      const answer = await get(0, `/api/v1/series/${NAPHTHA}?${query}`, bearer(key));
      expect(answer.status, query).toBe(400);
      expect(await answer.json(), query).toMatchObject({ error: { field } });
    }
    for (const query of ['', '?ids=', `?ids=${NAPHTHA},${NAPHTHA}`, '?ids=nope']) {
      const answer = await get(0, `/api/v1/latest${query}`, bearer(key));
      expect(answer.status, query).toBe(400);
      expect(await answer.json(), query).toMatchObject({ error: { field: 'ids' } });
    }
  });

  it('answers 304 to If-None-Match, still counted and with its rate headers', async () => {
    const key = await newKey();
    // The rate windows are whole minutes of the clock: a run may cross one between the requests.
    const minuteNow = () => Math.floor(Date.now() / 60_000);
    const startedIn = minuteNow();
    const first = await get(0, '/api/v1/catalog', bearer(key));
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    // On the same instance (another instance's remaining count starts from its own lease).
    const again = await get(0, '/api/v1/catalog', { ...bearer(key), 'if-none-match': etag });
    expect(again.status).toBe(304);
    // Counted: one fewer left in the same minute (a new minute starts again from the rate).
    const sameMinute = minuteNow() === startedIn;
    expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
    if (sameMinute) expect(again.headers.get('x-ratelimit-remaining')).toBe('58');
    else expect(['58', '59']).toContain(again.headers.get('x-ratelimit-remaining'));
  });
});

describe('the ids of /latest', () => {
  it('are read from the query as URLSearchParams reads them', () => {
    for (const search of ['', '?', '?ids=a,b', '?ids=', '?ids', '?xids=a&ids=b', '?ids=a&ids=b', '?key=pik_x&ids=a', '?&ids=a&', '?idsx=a', '?ids=a%2Cb', '?ids=a+b', '?ids=a=b', 'ids=c']) {
      expect(idsParamOf(search), search).toBe(new URLSearchParams(search).get('ids'));
    }
  });
});

describe('metered answers over one prepared body', () => {
  it('each carries its own counts and the viewer, in every encoding, over headers finished once', async () => {
    const key = await newKey();
    const minuteNow = () => Math.floor(Date.now() / 60_000);
    const startedIn = minuteNow();
    // The catalog is over 1 KiB: compressed for gzip and brotli, sent as it is for identity.
    const answers = [];
    for (const encoding of ['identity', 'gzip', 'br', 'identity', 'gzip'] as const) {
      const answer = await get(0, '/api/v1/catalog', { ...bearer(key), 'accept-encoding': encoding });
      expect(answer.status).toBe(200);
      answers.push({ encoding, answer, text: await answer.text() });
    }
    const etag = answers[0]!.answer.headers.get('etag')!;
    for (const [i, { encoding, answer, text }] of answers.entries()) {
      expect(answer.headers.get('content-encoding')).toBe(encoding === 'identity' ? null : encoding);
      expect(answer.headers.get('vary')).toBe('Authorization, Cookie, Accept, Accept-Encoding');
      expect(answer.headers.get('etag')).toBe(encoding === 'identity' ? etag : `W/${etag}`);
      expect(answer.headers.get('cache-control')).toBe('private, no-cache');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('x-polyindex-viewer')).toMatch(/^key=[0-9a-f]{32}; expires=\d+$/);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('60');
      expect(text).toBe(answers[0]!.text);
      if (minuteNow() === startedIn) expect(answer.headers.get('x-ratelimit-remaining'), `request ${i + 1}`).toBe(String(59 - i));
    }
    // Each request's counts are its own, not the first one's kept with the shared headers.
    expect(new Set(answers.map(({ answer }) => answer.headers.get('x-ratelimit-remaining'))).size).toBeGreaterThan(1);
  });
});

describe('a key in the URL', () => {
  it('is refused for JSON, refused when its owner did not allow it, and works for CSV when allowed', async () => {
    const owner = await platinumUser();
    const off = await newKey(owner, false);
    const on = await newKey(owner, true);
    const json = await get(0, `/api/v1/latest?ids=${NAPHTHA}&key=${on}`);
    expect(json.status).toBe(400);
    const jsonText = await json.text();
    expect(JSON.parse(jsonText)).toMatchObject({ error: { code: 'key_in_url', field: 'key' } });
    expect(jsonText).not.toContain(on);
    expect((await get(0, `/api/v1/latest.csv?ids=${NAPHTHA}&key=${off}`)).status).toBe(403);
    const csv = await get(1, `/api/v1/latest.csv?ids=${NAPHTHA}&key=${on}`);
    expect(csv.status).toBe(200);
    expect((await csv.text()).split('\r\n')[1]).toMatch(/^feedstock\.naphtha\.japan,Naphtha · Japan,US\$\/t,2026-11-24,615,2026-11-23,618\.25,-3\.25,-0\.5257$/);
  });
});

describe('metering', () => {
  it('holds a key to its rate across both instances: 429 with Retry-After and X-RateLimit headers; usage per day for its owner only', async () => {
    const { key, id } = mintKey();
    await stores[0]!.createApiKey({ id, ownerUid: 'feed-other', name: 'rated', hash: hashKey(key), createdAt: new Date().toISOString(), urlKey: false, ratePerMinute: 4, monthlyQuota: 1000 }, { uid: 'test', email: null });
    await stores[0]!.updateUsersBy('uid', 'feed-other', { expiresAt: YEAR_AHEAD() });
    // A minute boundary between requests would start a new window: begin early in one.
    await vi.waitUntil(() => new Date().getUTCSeconds() < 45, { timeout: 20_000, interval: 250 });
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 6; i++) {
      last = await get((i % 2) as 0 | 1, '/api/v1/catalog', bearer(key));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await last!.json()).toMatchObject({ error: { code: 'rate_limited' } });
    const mine = await keyPageData(stores[1]!, 'feed-other', new Date());
    expect(mine.usage.find((u) => u.keyId === id)).toMatchObject({ requests: 4, refused: 2 });
    expect((await keyPageData(stores[1]!, 'feed-platinum', new Date())).usage.some((u) => u.keyId === id)).toBe(false);
    expect(mine.keys.find((k) => k.key.id === id)).toMatchObject({ monthCount: 4 });
  });
});

describe('the Astro lane', () => {
  it('gives the same answers through the same gate (a key, a revoked key)', async () => {
    const store = stores[1]!;
    const access = createAccessMiddleware({ auth, store: async () => store });
    const call = async (key: string) => {
      const url = new URL(`http://127.0.0.1:4321/api/v1/latest?ids=${NAPHTHA}`);
      const request = new Request(url, { headers: { host: '127.0.0.1:4321', ...bearer(key) } });
      const context = {
        url, request, params: {}, locals: { session: null }, isPrerendered: false, routePattern: '/api/v1/latest', clientAddress: '127.0.0.1',
        cookies: { get: () => undefined, has: () => false, set: () => undefined, delete: () => undefined },
        redirect: (to: string) => new Response(null, { status: 302, headers: { Location: to } }),
        rewrite: async () => new Response('', { status: 404 }),
        site: undefined,
      } as unknown as APIContext;
      return (await access(context, async () => feedLatest({ ...context, store: async () => store } as unknown as APIContext))) as Response;
    };
    const owner = await platinumUser();
    const key = await newKey(owner);
    const served = await call(key);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-ratelimit-limit')).toBe('60');
    await revokeKey(stores[0]!, await sessionFor(stores[0]!, owner), key.split('_')[1]!, new Date());
    expect((await call(key)).status).toBe(401);
  });
});

describe('a key is a secret', () => {
  it('never appears in a log, the audit trail or an error', async () => {
    const logs = (['log', 'info', 'warn', 'error'] as const).map((level) => vi.spyOn(console, level));
    const owner = await platinumUser();
    const key = await newKey(owner, true);
    // One after another: two handles of one SQLite file in one process must not wait on each other's lock.
    const answers: Response[] = [];
    for (const [instance, path, headers] of [
      [0, `/api/v1/series/${key}`, bearer(key)],
      [0, `/api/v1/latest?ids=${key}`, bearer(key)],
      [0, `/api/v1/latest?ids=${NAPHTHA}&key=${key}`, {}],
      [1, `/api/v1/series/${NAPHTHA}?from=${key}`, bearer(key)],
      [1, '/api/v1/catalog', bearer(`${key}x`)],
    ] as const) {
      answers.push(await get(instance, path, headers));
    }
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(await answer.text()).not.toContain(key.slice(4));
    }
    await revokeKey(stores[0]!, await sessionFor(stores[0]!, owner), key.split('_')[1]!, new Date());
    const { entries } = await stores[0]!.listAudit({ target: `apiKey:${key.split('_')[1]!}` });
    expect(entries.map((e) => e.action)).toEqual(['apiKey.revoke', 'apiKey.create']);
    const trail = JSON.stringify(entries);
    expect(trail).not.toContain(key.slice(4));
    expect(trail).not.toContain(hashKey(key));
    for (const spy of logs) for (const call of spy.mock.calls) expect(JSON.stringify(call)).not.toContain(key.slice(4));
  });
});
