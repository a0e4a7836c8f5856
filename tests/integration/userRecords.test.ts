/**
 * The user record kept per process (docs/decisions.md, "User records"), as both lanes use it:
 * the node:http fast lane and the access middleware, each with "this instance's" store (its
 * record cache on a clock the test moves, so no version check can explain an answer) and
 * "another instance" (a second handle on the same SQLite file) that writes. Real emulator
 * sessions, a real SQLite file.
 *
 * - A refusal made from the copy is checked against the store first: a plan granted on
 *   another instance opens the door on the next request, in both lanes.
 * - A lapse decided elsewhere (a revocation) counts here within the bound.
 * - Trial days and plan expiry follow each request's clock, never the copy's age.
 */
import { resolve } from 'node:path';
import { getContainerRenderer } from '@astrojs/react/container-renderer';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import NotFound from '../../src/pages/404.astro';
import FullTextPage from '../../src/pages/news/[slug]/full.astro';
import { createAccessMiddleware } from '../../src/server/lanes/astroLane.ts';
import { sessionFromCookie } from '../../src/server/auth/currentSession.ts';
import { SESSION_COOKIE, startSession } from '../../src/server/auth/sessions.ts';
import { createSiteServer, type SiteServer } from '../../src/server/http/siteServer.ts';
import { createFastLane } from '../../src/server/lanes/fastLane.ts';
import { auth, store as runtimeStore } from '../../src/server/runtime.ts';
import { openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { USER_RECORD_BOUND_MS } from '../../src/server/store/userCache.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { TEST_DATA_DIR } from './env.ts';
import { apiContext, emulatorSignUp, uniqueEmail } from './helpers.ts';

const DAY_MS = 86_400_000;
const ddmmyyyy = (d: Date) => `${String(d.getUTCDate()).padStart(2, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${d.getUTCFullYear()}`;
const FEEDSTOCK = '/api/feedstock?name=Naphtha&country=japan';

let cacheClock = 0;
/** The requests' clock (the policy's `now`), apart from the cache's. */
let requestNow = Date.now();
let here: Store;
let elsewhere: Store;
let site: SiteServer;
let base: string;
let view: (path: string, cookie: string) => Promise<Response>;
let access: ReturnType<typeof createAccessMiddleware>;

beforeAll(async () => {
  // The suite's database (the runtime store seeds its demo prices on first open), opened twice more.
  await runtimeStore();
  const url = sqliteUrlFor(resolve(TEST_DATA_DIR));
  here = await openStore({ url, userCache: { now: () => cacheClock, refreshAtMs: USER_RECORD_BOUND_MS } });
  elsewhere = await openStore({ url });

  const now = () => new Date(requestNow);
  const session = (cookie: string | undefined, at: Date, options?: { readonly fresh?: boolean }) => sessionFromCookie({ auth: auth(), store: here }, cookie, at, options);
  site = createSiteServer({
    lanes: [createFastLane({ store: async () => here, session, now })],
    fallback: (_req, res) => {
      res.writeHead(599);
      res.end();
    },
  });
  base = `http://127.0.0.1:${await site.listen(0, '127.0.0.1')}`;
  access = createAccessMiddleware({ auth, store: async () => here, now });
  view = async (path, cookie) => {
    const { context } = apiContext(path, { cookies: { [SESSION_COOKIE]: cookie } });
    return (await access(context, async () => new Response('page', { status: 200 }))) as Response;
  };
});

afterAll(async () => {
  await site?.stop({ drainMs: 1000, closers: [] });
  await here?.close();
  await elsewhere?.close();
});

/** A visitor signed in with a record made on the other instance; this instance reads it once. */
async function visitor(fields: Partial<UserRecord>): Promise<{ uid: string; cookie: string }> {
  const email = uniqueEmail('records');
  const account = await emulatorSignUp(email);
  await elsewhere.createUser({ uid: account.uid, displayName: 'v', email, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2020', ...fields });
  return { uid: account.uid, cookie: (await startSession(auth(), account.idToken)).cookie };
}

const fast = (path: string, cookie: string) => fetch(`${base}${path}`, { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } });

describe('a refusal is checked against the store first', () => {
  it('a plan granted on another instance counts on the next request, in both lanes, while the copy is young', async () => {
    requestNow = Date.now();
    const { uid, cookie } = await visitor({});
    expect((await fast(FEEDSTOCK, cookie)).status).toBe(403);
    expect((await view('/crude/Naphtha', cookie)).headers.get('Location')).toBe('/subscription?locked=feedstock');
    // This instance now holds the record "no plan"; another one records a payment.
    await elsewhere.updateUsersBy('uid', uid, { subscribed: true, plan: 'Premium', expiresAt: new Date(requestNow + 30 * DAY_MS).toISOString() });
    expect((await fast(FEEDSTOCK, cookie)).status).toBe(200);
    expect((await view('/crude/Naphtha', cookie)).status).toBe(200);
  });

  it('a lapse decided on another instance counts here within the bound', async () => {
    requestNow = Date.now();
    const { uid, cookie } = await visitor({ subscribed: true, plan: 'Premium', expiresAt: new Date(requestNow + 30 * DAY_MS).toISOString() });
    expect((await fast(FEEDSTOCK, cookie)).status).toBe(200);
    await elsewhere.updateUsersBy('uid', uid, { subscribed: false });
    // The copy may answer until the bound…
    expect((await fast(FEEDSTOCK, cookie)).status).toBe(200);
    cacheClock += USER_RECORD_BOUND_MS;
    // …and not after it, in either lane.
    expect((await fast(FEEDSTOCK, cookie)).status).toBe(403);
    expect((await view('/crude/Naphtha', cookie)).headers.get('Location')).toBe('/subscription?locked=feedstock');
  });
});

describe('a page that decides itself refuses on the store\'s record, not the copy', () => {
  it('a premium post\'s full text opens at once for a plan granted on another instance', async () => {
    requestNow = Date.now();
    const slug = `records-premium-${requestNow.toString(36)}`;
    const at = new Date(requestNow - 60_000).toISOString();
    const written = await elsewhere.createPost({
      post: { id: slug, slug, oldSlugs: [], type: 'plant-news', title: 'Premium analysis', summary: 'For Premium readers.', body: `Premium only ${slug}.`, cover: null, access: 'full', status: 'published', publishAt: at, author: 'PolyIndex Desk', authorUid: null, tags: [], createdAt: at, updatedAt: at, deletedAt: null },
      actor: { uid: 'desk', email: 'desk@polyindex.test' },
      now: new Date(requestNow),
    });
    expect(written.kind).toBe('written');
    const container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
    container.insertPageRoute('/404', NotFound);
    // The middleware (the policy asks a sign-in of /news/{slug}/full), then the page (it asks full access of this post).
    const fullText = async (cookie: string) => {
      const { context } = apiContext(`/news/${slug}/full`, { cookies: { [SESSION_COOKIE]: cookie } });
      return (await access(context, () => container.renderToResponse(FullTextPage, { params: { slug }, request: context.request, locals: context.locals }))) as Response;
    };
    const { uid, cookie } = await visitor({});
    const refused = await fullText(cookie);
    expect(refused.status).toBe(302);
    expect(refused.headers.get('Location')).toBe('/subscription');
    // This instance now holds the record "no plan" (young: the cache's clock stands still); another one records a payment.
    await elsewhere.updateUsersBy('uid', uid, { subscribed: true, plan: 'Premium', expiresAt: new Date(requestNow + 30 * DAY_MS).toISOString() });
    const opened = await fullText(cookie);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain(`Premium only ${slug}.`);
  });
});

describe('the copy holds the record, not the decision', () => {
  it('a plan expires at its instant, however young the copy', async () => {
    requestNow = Date.now();
    const expiresAt = requestNow + 60_000;
    const { cookie } = await visitor({ subscribed: true, plan: 'Premium', expiresAt: new Date(expiresAt).toISOString() });
    expect((await fast(FEEDSTOCK, cookie)).status).toBe(200);
    expect((await view('/crude/Naphtha', cookie)).status).toBe(200);
    requestNow = expiresAt; // the cache's clock stands still: the record is the copy's
    expect((await fast(FEEDSTOCK, cookie)).status).toBe(403);
    expect((await view('/crude/Naphtha', cookie)).headers.get('Location')).toBe('/subscription?locked=feedstock');
  });

  it('a trial ends on its day, however young the copy', async () => {
    requestNow = Date.now();
    const { cookie } = await visitor({ createdAt: ddmmyyyy(new Date(requestNow + 5.5 * 3_600_000)) }); // today in India
    expect((await fast(FEEDSTOCK, cookie)).status).toBe(200);
    requestNow += 2 * DAY_MS;
    expect((await fast(FEEDSTOCK, cookie)).status).toBe(403);
    expect((await view('/crude/Naphtha', cookie)).headers.get('Location')).toBe('/subscription?locked=feedstock');
  });
});
