/**
 * GET /api/blogs: the handler (src/server/api/blogs.ts, a function of store, request, url and
 * session) on a store of its own, and the route through the real middleware with emulator
 * cookies. Today's types and the legacy values the original's clients send; the limited
 * sections' types for every account that may open those pages, the others for full access.
 */
import type { APIContext } from 'astro';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Entitlement } from '../../src/lib/access/policy.ts';
import type { Post } from '../../src/lib/posts.ts';
import { onRequest } from '../../src/middleware.ts';
import { POST as signInEndpoint } from '../../src/pages/api/auth/session.ts';
import { GET as blogsRoute } from '../../src/pages/api/blogs.ts';
import { blogsResponse } from '../../src/server/api/blogs.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { SESSION_COOKIE } from '../../src/server/auth/sessions.ts';
import { store as runtimeStore } from '../../src/server/runtime.ts';
import type { Store } from '../../src/server/store/index.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { apiContext, emulatorSignUp, freshStore, uniqueEmail } from './helpers.ts';

const NOW = new Date('2026-11-24T06:00:00Z');
const ORIGIN = 'http://127.0.0.1:4321';

function post(id: string, type: Post['type'], publishAt: string, over: Partial<Post> = {}): Post {
  return {
    id, slug: id, oldSlugs: [], type, title: `Title ${id}`, summary: 'A summary for the list.', body: 'Body.', cover: null, access: 'public', status: 'published',
    publishAt, author: 'PolyIndex Desk', authorUid: null, tags: ['t'], createdAt: publishAt, updatedAt: publishAt, deletedAt: null, ...over,
  };
}

let own: Store;
beforeAll(async () => {
  own = await freshStore();
  await own.seedPosts([
    post('plant-a', 'plant-news', '2026-11-02T06:00:00.000Z'),
    post('plant-b', 'plant-news', '2026-11-20T06:00:00.000Z'),
    post('plant-old', 'plant-news', '2025-03-10T06:00:00.000Z'),
    post('plant-draft', 'plant-news', '2026-11-21T06:00:00.000Z', { status: 'draft' }),
    post('plant-later', 'plant-news', '2026-11-24T07:00:00.000Z', { status: 'scheduled' }),
    post('pp-outlook', 'future-trend/PP', '2026-11-12T06:00:00.000Z', { access: 'full' }),
    post('india-post', 'global-bazaar/India', '2026-11-05T06:00:00.000Z'),
    post('lead', 'buy-sell', '2026-11-17T06:00:00.000Z', { access: 'limited' }),
    post('delegation', 'vip-delegations', '2026-10-01T06:00:00.000Z'),
    post('press', 'services/press-release', '2026-09-01T06:00:00.000Z'),
    post('tweet', 'daily-tweet', '2026-11-19T06:00:00.000Z'),
  ]);
});

const session = (entitlement: Entitlement): Session => ({ uid: `u-${entitlement}`, email: null, record: null, entitlement, inTrial: null });

async function ask(query: string, who: Entitlement | 'anonymous' = 'full', headers: Record<string, string> = {}) {
  const url = new URL(`/api/blogs${query}`, ORIGIN);
  const response = await blogsResponse(own, new Request(url, { headers }), url, who === 'anonymous' ? null : session(who), NOW);
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? (JSON.parse(text) as { data?: { id: string; date: string; type: string; url: string; access: string }[]; error?: { code: string; field?: string } }) : null };
}
const ids = async (query: string, who: Entitlement = 'full') => (await ask(query, who)).json?.data?.map((p) => p.id);

describe('types and legacy values', () => {
  it('lists a type\'s live posts oldest first, dates as dd/mm/yyyy, with their URLs', async () => {
    const { status, json, headers } = await ask('?type=plant-news');
    expect(status).toBe(200);
    expect(json?.data?.map((p) => p.id)).toEqual(['plant-old', 'plant-a', 'plant-b']);
    expect(json?.data?.[2]).toMatchObject({ id: 'plant-b', slug: 'plant-b', date: '20/11/2026', type: 'plant-news', url: '/news/plant-b', access: 'public', title: 'Title plant-b' });
    expect(headers.get('cache-control')).toBe('private, max-age=60');
    expect(headers.get('etag')).toBeTruthy();
    expect((await ask('?type=plant-news', 'full', { 'If-None-Match': headers.get('etag')! })).status).toBe(304);
  });

  it.each([
    ['PlantNews', ['plant-old', 'plant-a', 'plant-b']],
    ['plantnews', ['plant-old', 'plant-a', 'plant-b']],
    ['PP', ['pp-outlook']],
    ['future-trend/PP', ['pp-outlook']],
    ['India', ['india-post']],
    ['india', ['india-post']],
    ['global-bazaar/India', ['india-post']],
    ['BuySell', ['lead']],
    ['VipDelegations', ['delegation']],
    ['press-release', ['press']],
    ['DailyTweet', ['tweet']],
    ['PE', []],
  ])('type=%s lists %j', async (type, expected) => expect(await ids(`?type=${encodeURIComponent(type)}`)).toEqual(expected));

  it('filters by year and month (India\'s calendar) and defaults to the blog type', async () => {
    expect(await ids('?type=PlantNews&year=2026')).toEqual(['plant-a', 'plant-b']);
    expect(await ids('?type=PlantNews&year=2025')).toEqual(['plant-old']);
    expect(await ids('?type=PlantNews&year=2026&month=11')).toEqual(['plant-a', 'plant-b']);
    expect(await ids('?type=PlantNews&year=2026&month=10')).toEqual([]);
    expect(await ids('')).toEqual([]);
  });

  it.each([
    ['?type=gossip', 'type'],
    ['?type=future-trend/XX', 'type'],
    ['?type=blog&month=3', 'year'],
    ['?type=blog&year=abc', 'year'],
    ['?type=blog&year=1999', 'year'],
    ['?type=blog&year=2026&month=13', 'month'],
    ['?type=blog&year=2026&month=0', 'month'],
  ])('400 for %s, naming %s', async (query, field) => {
    const { status, json } = await ask(query);
    expect(status).toBe(400);
    expect(json?.error?.field).toBe(field);
  });
});

describe('who may read which type (the handler asks the access policy)', () => {
  const limited = ['?type=buy-sell', '?type=BuySell', '?type=VipDelegations', '?type=vip-delegations', '?type=events', '?type=services/press-release'];
  const full = ['?type=plant-news', '?type=PlantNews', '?type=PP', '?type=India', '?type=blog', '', '?type=gossip'];
  it.each(limited)('%s: anonymous 401; free, Basic/Standard, Premium and admin 200', async (query) => {
    expect((await ask(query, 'anonymous')).status).toBe(401);
    for (const who of ['none', 'limited', 'full', 'admin'] as const) expect((await ask(query, who)).status, who).toBe(200);
  });
  it.each(full)('%s: anonymous 401; free and Basic/Standard 403; Premium and admin answered', async (query) => {
    expect((await ask(query, 'anonymous')).status).toBe(401);
    for (const who of ['none', 'limited'] as const) expect((await ask(query, who)).json?.error?.code, who).toBe('forbidden');
    for (const who of ['full', 'admin'] as const) expect([200, 400]).toContain((await ask(query, who)).status);
  });
});

describe('through the real middleware, with emulator accounts like the demo ones', () => {
  let db: Store;
  beforeAll(async () => {
    db = await runtimeStore();
  });

  async function signedIn(state: Partial<UserRecord>): Promise<string> {
    const { idToken, uid } = await emulatorSignUp(uniqueEmail('blogs'));
    const { context, set } = apiContext('/api/auth/session', { method: 'POST', headers: { Origin: ORIGIN, 'Content-Type': 'application/json' }, body: JSON.stringify({ idToken }) });
    expect((await signInEndpoint(context)).status).toBe(200);
    await db.updateUsersBy('uid', uid, state);
    return set[SESSION_COOKIE]!.value;
  }

  const status = async (cookie: string | undefined, query: string) => {
    const { context } = apiContext(`/api/blogs${query}`, { routePattern: '/api/blogs', ...(cookie ? { cookies: { [SESSION_COOKIE]: cookie } } : {}) });
    return ((await onRequest(context, async () => blogsRoute(context as APIContext))) as Response).status;
  };

  it('buy-sell: anonymous 401, free / Basic / Premium / admin 200; plant news: free and Basic 403, Premium and admin 200', async () => {
    const future = new Date(Date.now() + 100 * 86_400_000).toISOString();
    const free = await signedIn({ createdAt: '01-01-2020' });
    const basic = await signedIn({ subscribed: true, plan: 'Basic', expiresAt: future });
    const premium = await signedIn({ subscribed: true, plan: 'Premium', expiresAt: future });
    const admin = await signedIn({ role: 'admin' });
    expect(await status(undefined, '?type=buy-sell')).toBe(401);
    expect(await status(undefined, '?type=PlantNews')).toBe(401);
    for (const cookie of [free, basic, premium, admin]) expect(await status(cookie, '?type=BuySell')).toBe(200);
    for (const cookie of [free, basic, premium, admin]) expect(await status(cookie, '?type=vip-delegations')).toBe(200);
    for (const cookie of [free, basic]) expect(await status(cookie, '?type=PlantNews')).toBe(403);
    for (const cookie of [premium, admin]) expect(await status(cookie, '?type=PlantNews')).toBe(200);
  });
});
