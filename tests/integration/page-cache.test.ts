/**
 * Public pages from memory (src/server/pageCache): an article rendered by Astro (the real page,
 * through src/middleware.ts) is kept and then answered by the node:http lane without a render;
 * an edit is visible on the next request; a request with a session cookie is never answered from
 * the cache and never fills it; a second instance (its own store over the same SQLite file) drops
 * its pages within CHECK_MS of a change made elsewhere.
 */
import { mkdtempSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { getContainerRenderer } from '@astrojs/react/container-renderer';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Post } from '../../src/lib/posts.ts';
import { onRequest } from '../../src/middleware.ts';
import NotFound from '../../src/pages/404.astro';
import ArticlePage from '../../src/pages/news/[slug].astro';
import { createSiteServer, type SiteServer } from '../../src/server/http/siteServer.ts';
import { createPageCache, type PageCache } from '../../src/server/pageCache/cache.ts';
import { pageCache } from '../../src/server/pageCache/index.ts';
import { createPageCacheLane, pageKey } from '../../src/server/pageCache/lane.ts';
import { store as runtimeStore } from '../../src/server/runtime.ts';
import { openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { TEST_DATA_DIR } from './env.ts';
import { apiContext } from './helpers.ts';
import { rawRequest } from './helpers.ts';

const actor = { uid: 'desk-test', email: 'desk@polyindex.test' };
const stamp = Date.now().toString(36);

function post(id: string, title: string): Post {
  const at = new Date(Date.now() - 3_600_000).toISOString();
  return {
    id,
    slug: id,
    oldSlugs: [],
    type: 'plant-news',
    title,
    summary: 'A summary long enough for a list.',
    body: `First paragraph about naphtha ${stamp}.\n\n${'Second paragraph with **bold** market colour. '.repeat(40)}`,
    cover: null,
    access: 'public',
    status: 'published',
    publishAt: at,
    author: 'PolyIndex Desk',
    authorUid: null,
    tags: [],
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
  };
}

const raw = rawRequest;

let db: Store;
let site: SiteServer;
let base: string;
/** Renders of the article page (each one is Astro's, not the cache's). */
let renders = 0;

/** The server entry's order, with Astro played by its middleware around the real article page. */
async function astro(req: IncomingMessage, res: ServerResponse, container: AstroContainer): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1:4321');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value;
  const cookies = Object.fromEntries((req.headers.cookie ?? '').split(';').filter(Boolean).map((pair) => pair.trim().split('=') as [string, string]));
  const { context } = apiContext(`${url.pathname}${url.search}`, { method: req.method ?? 'GET', headers, cookies, routePattern: '/news/[slug]', params: { slug: url.pathname.split('/')[2]! } });
  const response = (await onRequest(context, async () => {
    renders++;
    return container.renderToResponse(ArticlePage, { params: { slug: url.pathname.split('/')[2]! }, request: context.request, locals: context.locals });
  })) as Response;
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Until the cache has read the store's change marker once (it serves nothing before). */
async function cacheReady(cache: PageCache): Promise<void> {
  await vi.waitFor(() => {
    cache.keep('/ready-probe', { headers: {}, body: Buffer.from('x') }, cache.generation());
    expect(cache.lookup('/ready-probe')).not.toBeNull();
  }, { timeout: 30_000, interval: 20 });
}

beforeAll(async () => {
  db = await runtimeStore();
  const container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
  container.insertPageRoute('/404', NotFound);
  site = createSiteServer({
    lanes: [createPageCacheLane(pageCache)],
    fallback: (req, res) => astro(req, res, container),
  });
  base = `http://127.0.0.1:${await site.listen(0, '127.0.0.1')}`;
  await cacheReady(pageCache);
});

afterAll(async () => {
  await site.stop({ drainMs: 1000, closers: [] });
});

describe('one instance', () => {
  it('renders an article once, then answers it from memory (identity, br, gzip, HEAD, 304)', async () => {
    const id = `cached-${stamp}`;
    expect((await db.createPost({ post: post(id, `Naphtha firm ${stamp}`), actor, now: new Date() })).kind).toBe('written');
    const before = renders;
    const first = await raw(`${base}/news/${id}`, { 'accept-encoding': 'identity' });
    expect(first.status).toBe(200);
    expect(first.body.toString('utf8')).toContain(`Naphtha firm ${stamp}`);
    expect(renders).toBe(before + 1);

    const again = await raw(`${base}/news/${id}`, { 'accept-encoding': 'identity' });
    expect(renders).toBe(before + 1);
    expect(again.body.equals(first.body)).toBe(true);
    for (const name of ['content-type', 'cache-control', 'etag', 'vary', 'content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy']) {
      expect(again.headers[name], name).toBe(first.headers[name]);
    }

    const br = await raw(`${base}/news/${id}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(first.body)).toBe(true);
    const gz = await raw(`${base}/news/${id}`, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(first.body)).toBe(true);
    expect(br.headers['etag']).toBe(`W/${first.headers['etag']}`);

    const head = await raw(`${base}/news/${id}`, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(br.body.length));

    const notModified = await raw(`${base}/news/${id}`, { 'accept-encoding': 'br', 'if-none-match': br.headers['etag']! });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['etag']).toBe(br.headers['etag']);
    expect(notModified.body.length).toBe(0);
    expect(renders).toBe(before + 1);
  });

  it('shows an edit on the very next request, and an unpublished post is gone at once', async () => {
    const id = `edited-${stamp}`;
    await db.createPost({ post: post(id, `Before the edit ${stamp}`), actor, now: new Date() });
    expect((await raw(`${base}/news/${id}`)).body.toString('utf8')).toContain(`Before the edit ${stamp}`);
    expect((await raw(`${base}/news/${id}`)).body.toString('utf8')).toContain(`Before the edit ${stamp}`);
    const rendered = renders;

    const edit = await db.updatePost({ id, action: 'post.update', actor, now: new Date(), change: (p) => ({ ok: true, post: { ...p, title: `After the edit ${stamp}` } }) });
    expect(edit.kind).toBe('written');
    const next = await raw(`${base}/news/${id}`);
    expect(renders).toBe(rendered + 1);
    expect(next.body.toString('utf8')).toContain(`After the edit ${stamp}`);
    expect(next.body.toString('utf8')).not.toContain(`Before the edit ${stamp}`);

    await db.updatePost({ id, action: 'post.unpublish', actor, now: new Date(), change: (p) => ({ ok: true, post: { ...p, status: 'draft', publishAt: null } }) });
    expect((await raw(`${base}/news/${id}`)).status).toBe(404);
  });

  it('never answers a request with a session cookie from memory, and never keeps its render', async () => {
    const id = `session-${stamp}`;
    await db.createPost({ post: post(id, `Signed-in readers ${stamp}`), actor, now: new Date() });
    const before = renders;
    await raw(`${base}/news/${id}`, { cookie: '__session=not-a-valid-session' });
    await raw(`${base}/news/${id}`, { cookie: 'theme=dark; __session=another' });
    expect(renders).toBe(before + 2);
    // The anonymous visitor after them is rendered: neither filled the cache.
    await raw(`${base}/news/${id}`);
    expect(renders).toBe(before + 3);
    // Now it is kept, and a session cookie still renders; other cookies do not matter.
    await raw(`${base}/news/${id}`, { cookie: 'theme=dark' });
    expect(renders).toBe(before + 3);
    await raw(`${base}/news/${id}`, { cookie: '__session=not-a-valid-session' });
    expect(renders).toBe(before + 4);
  });

  it('keeps no other route kind (a gated full text, search) and no private answer', async () => {
    const { context } = apiContext('/news/search?q=x', { routePattern: '/news/search' });
    await onRequest(context, async () => new Response('<p>search</p>'.repeat(200), { headers: { 'Content-Type': 'text/html', 'Cache-Control': 'public, max-age=60' } }));
    expect(pageCache.lookup(pageKey('/news/search', '?q=x'))).toBeNull();
    const { context: privatePage } = apiContext(`/news/private-${stamp}`, { routePattern: '/news/[slug]' });
    await onRequest(privatePage, async () => new Response('<p>mine</p>'.repeat(200), { headers: { 'Content-Type': 'text/html', 'Cache-Control': 'private, no-cache' } }));
    expect(pageCache.lookup(pageKey(`/news/private-${stamp}`, ''))).toBeNull();
  });
});

describe('two instances over one store', () => {
  let own: Store;
  let other: Store;
  afterAll(async () => {
    await own.close();
    await other.close();
  });

  it('drops a page on the other instance within CHECK_MS of a change made here', async () => {
    const dir = mkdtempSync(join(TEST_DATA_DIR, 'store-'));
    own = await openStore({ url: sqliteUrlFor(dir) });
    // The second instance: its own connection to the same SQLite file.
    other = await openStore({ url: sqliteUrlFor(dir) });
    let clock = 1_000_000;
    const checkMs = 2_000;
    const second = createPageCache({ changes: async () => other, now: () => clock, checkMs });
    await cacheReady(second);
    const page = { headers: { 'content-type': 'text/html' }, body: Buffer.from('<p>old</p>') };
    second.keep('/news/x', page, second.generation());
    expect(second.lookup('/news/x')).not.toBeNull();

    // A change on the first instance (its own store): the second has not read the marker since.
    await own.createPost({ post: post(`other-${stamp}`, 'Elsewhere'), actor, now: new Date() });
    expect(second.lookup('/news/x')).not.toBeNull();
    // Past the bound without a fresh read, nothing is served; the read (started at half of it) drops the page.
    clock += checkMs;
    expect(second.lookup('/news/x')).toBeNull();
    await vi.waitFor(() => {
      second.keep('/ready-probe', { headers: {}, body: Buffer.from('x') }, second.generation());
      expect(second.lookup('/ready-probe')).not.toBeNull();
    }, { timeout: 30_000, interval: 20 });
    expect(second.lookup('/news/x')).toBeNull();
  });
});
