/**
 * The newsroom as readers meet it, against the real stores: the live loader (what is live at a
 * given time, old slugs, rendering), the demo posts seeded from src/content/news, the article
 * page rendered through Astro's container, the RSS feed, the sitemap, the public cache headers
 * and their ETag/304, and a hostile post's body through page, feed and the real mailer's outbox.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getContainerRenderer } from '@astrojs/react/container-renderer';
import type { APIContext } from 'astro';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { getCollection } from 'astro:content';
import { simpleParser } from 'mailparser';
import { SaxesParser } from 'saxes';
import { beforeAll, describe, expect, it } from 'vitest';
import { entitlementOf } from '../../src/lib/access/policy.ts';
import type { Post } from '../../src/lib/posts.ts';
import NotFound from '../../src/pages/404.astro';
import ArticlePage from '../../src/pages/news/[slug].astro';
import FullTextPage from '../../src/pages/news/[slug]/full.astro';
import SearchPage from '../../src/pages/news/search.astro';
import { GET as rssFeed } from '../../src/pages/rss.xml.ts';
import { GET as robots } from '../../src/pages/robots.txt.ts';
import { GET as sitemap } from '../../src/pages/sitemap-0.xml.ts';
import { GET as sitemapIndexRoute } from '../../src/pages/sitemap-index.xml.ts';
import { blogsResponse } from '../../src/server/api/blogs.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { conditionalGet } from '../../src/server/http/conditionalGet.ts';
import { createMailer } from '../../src/server/mail/mailer.ts';
import { articleJsonLd, jsonLdScript, newsListPath, newsTypeLabel, parseListPath, PUBLIC_PAGE_CACHE } from '../../src/server/news.ts';
import { entryOf, postsLoader } from '../../src/server/posts/live.ts';
import { postMail } from '../../src/server/posts/mail.ts';
import { renderPostHtml } from '../../src/server/posts/render.ts';
import { store as runtimeStore } from '../../src/server/runtime.ts';
import type { Store } from '../../src/server/store/index.ts';
import { freshStore, sessionOf } from './helpers.ts';
import { TEST_DATA_DIR } from './env.ts';

const site = new URL('https://polyindex.example');
const actor = { uid: 'desk-test', email: 'desk@polyindex.test' };
const stamp = Date.now().toString(36);
const HOSTILE = ['Intro paragraph.', '', '<script>alert(1)</script>', '', '<img src=x onerror=alert(1)>', '', '[x](javascript:alert(1))', '', 'Closing words.'].join('\n');

function post(id: string, over: Partial<Post> = {}): Post {
  const at = new Date(Date.now() - 3_600_000).toISOString();
  return {
    id,
    slug: id,
    oldSlugs: [],
    type: 'plant-news',
    title: `Post ${id}`,
    summary: 'A summary long enough for a list.',
    body: 'First paragraph.\n\nSecond paragraph with **bold**.',
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
    ...over,
  };
}

/** The first well-formedness error of an XML document by a strict XML 1.0 parser (saxes), or null. */
function xmlError(xml: string): string | null {
  const parser = new SaxesParser();
  let first: string | null = null;
  parser.on('error', (error) => void (first ??= error.message));
  parser.write(xml).close();
  return first;
}

/** Everything a rendered HTML must never hold active. */
function expectInert(html: string): void {
  expect(html).not.toMatch(/<script>alert|<script\b[^>]*>\s*alert/i);
  for (const tag of html.match(/<[a-z][^>]*>/gi) ?? []) {
    expect(tag).not.toMatch(/\son(error|load|click|mouseover)\s*=/i);
    expect(tag).not.toMatch(/(href|src)\s*=\s*["']?\s*javascript:/i);
  }
}

let db: Store;
beforeAll(async () => {
  db = await runtimeStore();
});

describe('the demo posts (seeded from src/content/news on first start)', () => {
  it('are all in the store with their file names as ids and slugs, premium ones as full access', async () => {
    const seed = await getCollection('newsSeed');
    expect(seed.length).toBeGreaterThan(50);
    for (const entry of seed) {
      const stored = await db.getPost(entry.id);
      expect(stored, entry.id).toMatchObject({ id: entry.id, slug: entry.id, type: entry.data.type, status: 'published', access: entry.data.access === 'premium' ? 'full' : 'public' });
      // A post's price templates are filled from the data of its date (src/lib/newsQuotes.ts); the rest is the file's text.
      if (!/\{\{/.test(entry.body ?? '')) expect(stored!.body).toBe((entry.body ?? '').trim());
      for (const text of [stored!.title, stored!.summary, stored!.body]) expect(text, entry.id).not.toContain('{{');
    }
  });
});

describe('the live loader', () => {
  let own: Store;
  let clock = new Date('2026-11-24T06:00:00Z');
  const loader = () => postsLoader({ store: async () => own, now: () => clock });

  beforeAll(async () => {
    own = await freshStore();
    await own.seedPosts([
      post('live-one', { publishAt: '2026-11-24T05:00:00.000Z' }),
      post('draft-one', { status: 'draft', publishAt: null }),
      post('soon', { status: 'scheduled', publishAt: '2026-11-24T06:01:00.000Z' }),
      post('gone', { deletedAt: '2026-11-23T00:00:00.000Z' }),
      post('hostile', { body: HOSTILE, publishAt: '2026-11-24T04:00:00.000Z' }),
    ]);
  });

  it('lists live posts only, newest first, and a scheduled post once its time has come', async () => {
    const list = async () => {
      const result = await loader().loadCollection({ collection: 'posts', filter: {} });
      if ('error' in result) throw result.error;
      return result.entries.map((e) => e.id);
    };
    clock = new Date('2026-11-24T06:00:00Z');
    expect(await list()).toEqual(['live-one', 'hostile']);
    clock = new Date('2026-11-24T06:01:00Z');
    expect(await list()).toEqual(['soon', 'live-one', 'hostile']);
  });

  it('finds an entry by slug only while it is live, with its rendered, sanitised body', async () => {
    clock = new Date('2026-11-24T06:00:30Z');
    const entry = async (slug: string) => loader().loadEntry({ collection: 'posts', filter: { slug } });
    expect(await entry('soon')).toBeUndefined();
    expect(await entry('draft-one')).toBeUndefined();
    expect(await entry('gone')).toBeUndefined();
    expect(await entry('nothing')).toBeUndefined();
    const live = await entry('live-one');
    expect(live && !('error' in live) ? live.rendered?.html : '').toContain('<strong>bold</strong>');
    const hostile = await entry('hostile');
    const html = hostile && !('error' in hostile) ? (hostile.rendered?.html ?? '') : '';
    expect(html).toContain('Closing words.');
    expectInert(html);
    clock = new Date('2026-11-24T06:01:00Z');
    expect(await entry('soon')).toMatchObject({ id: 'soon', data: { slug: 'soon', date: '2026-11-24' } });
  });

  it('answers an old slug with the post under its current slug', async () => {
    await own.updatePost({ id: 'live-one', action: 'post.slug', actor, now: clock, change: (p) => ({ ok: true, post: { ...p, slug: 'live-one-renamed', oldSlugs: ['live-one'] } }) });
    const entry = await loader().loadEntry({ collection: 'posts', filter: { slug: 'live-one' } });
    expect(entry).toMatchObject({ id: 'live-one', data: { slug: 'live-one-renamed' } });
  });

  it('renders collection bodies only when asked (the feed)', async () => {
    const plain = await loader().loadCollection({ collection: 'posts', filter: { limit: 1 } });
    const rendered = await loader().loadCollection({ collection: 'posts', filter: { limit: 1, html: true } });
    if ('error' in plain || 'error' in rendered) throw new Error('loader failed');
    expect(plain.entries[0]!.rendered).toBeUndefined();
    expect(rendered.entries[0]!.rendered?.html).toBeTruthy();
    // Entries never carry the markdown: what a page shows comes from the renderer.
    expect('body' in plain.entries[0]!.data).toBe(false);
  });
});

describe('articles, feed, sitemap and mail of a live post (the site\'s own store)', () => {
  const hostileId = `xss-${stamp}`;
  const gatedId = `gated-${stamp}`;
  const draftId = `draft-${stamp}`;
  const controlId = `ctl-${stamp}`;
  let container: AstroContainer;

  beforeAll(async () => {
    const now = new Date();
    const at = new Date(now.getTime() - 60_000).toISOString();
    for (const p of [
      post(hostileId, { title: `Hostile body ${stamp}`, body: HOSTILE, publishAt: at }),
      post(gatedId, { title: `Gated analysis ${stamp}`, access: 'full', body: `Open first paragraph ${stamp}.\n\nSecret conclusion ${stamp} for subscribers.`, publishAt: at }),
      post(draftId, { title: `Draft ${stamp}`, status: 'draft', publishAt: null }),
      // C0 controls in every text a feed carries: XML 1.0 cannot hold them, even escaped.
      post(controlId, { title: `Control\u0001 title\u0008 ${stamp}\u001F`, summary: `A summary\u000B with a form feed\u000C and a bell\u0007.`, body: `Body\u0002 text ${stamp}.`, publishAt: at }),
    ]) {
      const result = await db.createPost({ post: p, actor, now });
      expect(result.kind).toBe('written');
    }
    container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
    container.insertPageRoute('/404', NotFound);
  });

  const renderArticle = (slug: string) =>
    container.renderToResponse(ArticlePage, { params: { slug }, request: new Request(new URL(`/news/${slug}`, 'http://127.0.0.1:4321')), locals: { session: null } });

  it('renders a hostile body inert on the article page, public and cacheable by shared caches', async () => {
    const response = await renderArticle(hostileId);
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe(PUBLIC_PAGE_CACHE);
    const html = await response.text();
    expect(html).toContain(`Hostile body ${stamp}`);
    expect(html).toContain('Closing words.');
    const article = /<article[\s\S]*<\/article>/.exec(html)?.[0] ?? '';
    expectInert(article);
    expect(article).not.toContain('<script');
  });

  it('shows a gated post\'s title, summary and the paywall, nothing of its body', async () => {
    const html = await (await renderArticle(gatedId)).text();
    expect(html).toContain(`Gated analysis ${stamp}`);
    expect(html).toContain('A summary long enough for a list.');
    expect(html).toContain('data-testid="paywall"');
    expect(html).not.toContain(`Open first paragraph ${stamp}`);
    expect(html).not.toContain(`Secret conclusion ${stamp}`);
    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}') as Record<string, unknown>;
    expect(ld).toMatchObject({ '@type': 'NewsArticle', isAccessibleForFree: false, hasPart: { cssSelector: '.paywalled' } });
  });

  it('answers 404 for a draft, and a search page that finds the live post but not the draft', async () => {
    const draft = await renderArticle(draftId);
    expect(draft.status).toBe(404);
    expect(await draft.text()).not.toContain(`Draft ${stamp}`);
    expect((await renderArticle('no-such-post')).status).toBe(404);
    const search = await container.renderToString(SearchPage, { request: new Request(new URL(`/news/search?q=hostile+${stamp}`, 'http://127.0.0.1:4321')), locals: { session: null } });
    expect(search).toContain(`Hostile body ${stamp}`);
    const none = await container.renderToString(SearchPage, { request: new Request(new URL(`/news/search?q=draft+${stamp}`, 'http://127.0.0.1:4321')), locals: { session: null } });
    expect(none).toContain('No posts match');
    const secret = await container.renderToString(SearchPage, { request: new Request(new URL(`/news/search?q=secret+conclusion+${stamp}`, 'http://127.0.0.1:4321')), locals: { session: null } });
    expect(secret).toContain('No posts match');
  });

  it('puts the hostile post inert into the feed, and the gated post as its summary only', async () => {
    const response = await rssFeed({ site, url: new URL('/rss.xml', site) } as unknown as APIContext);
    expect(response.headers.get('Cache-Control')).toBe(PUBLIC_PAGE_CACHE);
    const xml = await response.text();
    const item = (id: string) => xml.split('<item>').find((i) => i.includes(`/news/${id}/`)) ?? '';
    const hostile = item(hostileId);
    expect(hostile).toContain('<content:encoded>');
    // The feed carries the HTML as text (escaped or CDATA): decode it as a reader would.
    const content = /<content:encoded>([\s\S]*?)<\/content:encoded>/.exec(hostile)?.[1] ?? '';
    const decoded = content.replace(/^<!\[CDATA\[|\]\]>$/g, '').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
    expect(decoded).toContain('Closing words.');
    expectInert(decoded);
    expect(decoded).not.toContain('<script');
    const gated = item(gatedId);
    expect(gated).not.toContain('<content:encoded>');
    expect(gated).toContain('<category>Premium</category>');
    expect(xml).not.toContain(`Secret conclusion ${stamp}`);
    expect(xml).not.toContain(`Draft ${stamp}`);
    for (const link of xml.match(/<link>[^<]+<\/link>/g)!.slice(1)) expect(link).toMatch(/^<link>https:\/\/polyindex\.example\/news\/[\w-]+\/<\/link>$/);
  });

  it('keeps the feed and the sitemap well-formed XML when a post holds control characters (probe finding 4)', async () => {
    const xml = await (await rssFeed({ site, url: new URL('/rss.xml', site) } as unknown as APIContext)).text();
    expect(xmlError(xml)).toBeNull();
    const item = xml.split('<item>').find((i) => i.includes(`/news/${controlId}/`)) ?? '';
    expect(item).toContain(`<title>Control title ${stamp}</title>`);
    expect(item).toContain('A summary with a form feed and a bell.');
    expect(item).toContain(`Body text ${stamp}.`);
    const map = await (await sitemap({ site, url: new URL('/sitemap-0.xml', site) } as unknown as APIContext)).text();
    expect(xmlError(map)).toBeNull();
    expect(map).toContain(`/news/${controlId}/`);
  });

  it('sends the hostile post through the real mailer into the outbox, inert', async () => {
    const outboxDir = join(TEST_DATA_DIR, `post-mail-${stamp}`);
    const mailer = createMailer({ outboxDir, from: 'PolyIndex <desk@polyindex.test>' });
    const rendered = postMail((await db.getPost(hostileId))!, site);
    const sent = await mailer.send({ to: 'editor@polyindex.test', ...rendered });
    if (sent.delivery.kind !== 'outbox') throw new Error('expected the outbox');
    const mail = await simpleParser(readFileSync(join(outboxDir, sent.delivery.file)));
    expect(mail.subject).toBe(`PolyIndex: Hostile body ${stamp}`);
    const html = String(mail.html);
    expect(html).toContain('Closing words.');
    expectInert(html);
    expect(html).not.toContain('<script');
    expect(mail.text).toContain('Closing words.');
    expect(mail.text).toContain(`https://polyindex.example/news/${hostileId}/`);
    // A gated post's mail carries what its public page shows: summary and link, no body.
    const gated = postMail((await db.getPost(gatedId))!, site);
    expect(gated.html).toContain('A summary long enough for a list.');
    expect(gated.html).toContain(`https://polyindex.example/news/${gatedId}/`);
    expect(gated.html).not.toContain(`Open first paragraph ${stamp}`);
    expect(gated.text).not.toContain(`Open first paragraph ${stamp}`);
    expect(gated.html).not.toContain(`Secret conclusion ${stamp}`);
    expect(gated.text).not.toContain(`Secret conclusion ${stamp}`);
    mailer.close();
  });

  it('sends a post\'s links and images as absolute URLs on the site (a mail client has no site to resolve them against)', async () => {
    const image = '0f0e0d0c-0b0a-4909-8807-060504030201';
    const body = [`![A chart](/news/images/${image}-1200.webp)`, '', `See [the plant](/news/some-plant-${stamp}), [a note](#note), [PolyIndex](https://example.com/x) or [write](mailto:desk@polyindex.test).`].join('\n');
    const outboxDir = join(TEST_DATA_DIR, `post-mail-links-${stamp}`);
    const mailer = createMailer({ outboxDir, from: 'PolyIndex <desk@polyindex.test>' });
    const sent = await mailer.send({ to: 'editor@polyindex.test', ...postMail(post(`links-${stamp}`, { body }), site) });
    mailer.close();
    if (sent.delivery.kind !== 'outbox') throw new Error('expected the outbox');
    const html = String((await simpleParser(readFileSync(join(outboxDir, sent.delivery.file)))).html);
    expect(html).toContain(`src="https://polyindex.example/news/images/${image}-1200.webp"`);
    expect(html).toContain(`href="https://polyindex.example/news/some-plant-${stamp}"`);
    expect(html).toContain(`href="https://polyindex.example/news/links-${stamp}/#note"`);
    expect(html).toContain('href="https://example.com/x"');
    expect(html).toContain('href="mailto:desk@polyindex.test"');
    expect(html).not.toMatch(/(href|src)="\//);
    // The page keeps site paths (the same renderer, without the mail's pass).
    expect(renderPostHtml(body)).toContain(`src="/news/images/${image}-1200.webp"`);
  });

  it('lists public pages and live public posts in the sitemap, never drafts, gated posts or gated sections', async () => {
    const xml = await (await sitemap({ site, url: new URL('/sitemap-0.xml', site) } as unknown as APIContext)).text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    for (const expected of ['/', '/news/', '/terms/', '/contact/', `/news/${hostileId}/`, '/news/type/plant-news/', '/news/page/2/', '/news/2026-11-21-how-to-read-cif-nhava-sheva-landed-cost/', '/future-trend/PP/track-record/']) {
      expect(locs, expected).toContain(expected);
    }
    expect(locs).not.toContain(`/news/${draftId}/`);
    // Issue 12: "published public posts"; a gated article is title, summary and paywall only.
    expect(locs).not.toContain(`/news/${gatedId}/`);
    for (const gated of ['/buy-sell/', '/crude/', '/subscription/', '/plant-news/', '/future-trend/PP/']) expect(locs).not.toContain(gated);
    expect(new Set(locs).size).toBe(locs.length);
    const index = await (await sitemapIndexRoute({ site, url: new URL('/sitemap-index.xml', site) } as unknown as APIContext)).text();
    expect(index).toContain('<loc>https://polyindex.example/sitemap-0.xml</loc>');
    const robotsText = await (await robots({ site, url: new URL('/robots.txt', site) } as unknown as APIContext)).text();
    expect(robotsText).toContain('Sitemap: https://polyindex.example/sitemap-index.xml');
  });
});

/** Readers by plan, as the middleware would put them on locals (entitlement derived from the record, as it does). */
function reader(kind: 'free' | 'Basic' | 'Standard' | 'Premium' | 'Platinum' | 'admin'): Session {
  const paid = kind !== 'free' && kind !== 'admin';
  const record = {
    uid: `reader-${kind}-${stamp}`,
    displayName: null,
    email: `${kind.toLowerCase()}-${stamp}@example.test`,
    phone: null,
    photoURL: null,
    role: kind === 'admin' ? 'admin' : 'user',
    subscribed: paid,
    plan: paid ? kind : null,
    // Signed up long ago: no trial.
    createdAt: '01-01-2020',
    expiresAt: paid ? new Date(Date.now() + 30 * 86_400_000).toISOString() : null,
  };
  return sessionOf(record, entitlementOf({ uid: record.uid, record }, new Date()));
}

describe('a one-paragraph gated post: nothing of its body reaches anyone who may not read it', () => {
  // Buy/sell leads and daily tweets are typed as lines without blank lines: one <p> in markdown.
  const secret = (n: number) => `bodyonly${n}${stamp}`;
  const limitedId = `lead-${stamp}`;
  const fullId = `tweet-${stamp}`;
  const limitedBody = `Seller offers LLDPE film ${secret(1)}\nat Kandla, 40 t ${secret(2)}\ncall the desk ${secret(3)}`;
  const fullBody = `Naphtha firmer ${secret(4)} on tight supply ${secret(5)}.`;
  const secrets = [1, 2, 3, 4, 5].map(secret);
  const expectNoBody = (text: string, where: string) => {
    for (const s of secrets) expect(text, `${where} holds ${s}`).not.toContain(s);
  };
  let container: AstroContainer;

  beforeAll(async () => {
    const now = new Date();
    const at = new Date(now.getTime() - 60_000).toISOString();
    for (const p of [
      post(limitedId, { type: 'buy-sell', title: `Lead title ${stamp}`, summary: `Lead summary ${stamp}.`, access: 'limited', body: limitedBody, publishAt: at }),
      post(fullId, { type: 'daily-tweet', title: `Tweet title ${stamp}`, summary: `Tweet summary ${stamp}.`, access: 'full', body: fullBody, publishAt: at }),
    ]) {
      expect((await db.createPost({ post: p, actor, now })).kind).toBe('written');
    }
    container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
    container.insertPageRoute('/404', NotFound);
  });

  const request = (path: string) => new Request(new URL(path, 'http://127.0.0.1:4321'));

  it.each([
    ['anonymous', null],
    ['a free reader', 'free'],
    ['a Basic reader', 'Basic'],
  ] as const)('the article page (one page for every visitor, kept by shared caches) for %s: title, summary, paywall, no body', async (_who, kind) => {
    for (const [id, title, summary] of [[limitedId, 'Lead title', 'Lead summary'], [fullId, 'Tweet title', 'Tweet summary']] as const) {
      const response = await container.renderToResponse(ArticlePage, { params: { slug: id }, request: request(`/news/${id}`), locals: { session: kind ? reader(kind) : null } });
      expect(response.status).toBe(200);
      expect(response.headers.get('Cache-Control')).toBe(PUBLIC_PAGE_CACHE);
      const html = await response.text();
      expect(html).toContain(`${title} ${stamp}`);
      expect(html).toContain(`${summary} ${stamp}.`);
      expect(html).toContain('data-testid="paywall"');
      // The whole page: body, meta description, JSON-LD.
      expectNoBody(html, `/news/${id}`);
    }
  });

  it('the live collection gives a gated post\'s body to the full-text page only', async () => {
    const loader = postsLoader({ store: async () => db });
    for (const id of [limitedId, fullId]) {
      const entry = await loader.loadEntry({ collection: 'posts', filter: { slug: id } });
      expect(entry && !('error' in entry) ? entry.data.slug : null).toBe(id);
      expect(entry && !('error' in entry) ? entry.rendered : 'error').toBeUndefined();
      const full = await loader.loadEntry({ collection: 'posts', filter: { slug: id, fullText: true } });
      expect(full && !('error' in full) ? full.rendered?.html : '').toContain(secret(id === limitedId ? 1 : 4));
    }
    const feed = await loader.loadCollection({ collection: 'posts', filter: { html: true, limit: 500 } });
    if ('error' in feed) throw feed.error;
    const ours = feed.entries.filter((e) => e.id === limitedId || e.id === fullId);
    expect(ours).toHaveLength(2);
    for (const entry of ours) expect(entry.rendered).toBeUndefined();
  });

  it('the feed, the sitemap and search carry title and summary at most', async () => {
    const xml = await (await rssFeed({ site, url: new URL('/rss.xml', site) } as unknown as APIContext)).text();
    expect(xml).toContain(`Lead title ${stamp}`);
    expectNoBody(xml, 'rss');
    const map = await (await sitemap({ site, url: new URL('/sitemap-0.xml', site) } as unknown as APIContext)).text();
    expect(map).not.toContain(`/news/${limitedId}/`);
    expect(map).not.toContain(`/news/${fullId}/`);
    const search = (q: string) => container.renderToString(SearchPage, { request: request(`/news/search?q=${encodeURIComponent(q)}`), locals: { session: null } });
    for (const s of secrets) expect(await search(s)).toContain('No posts match');
    const found = await search(`title ${stamp}`);
    expect(found).toContain(`Lead title ${stamp}`);
    expect(found).toContain(`Tweet title ${stamp}`);
    expectNoBody(found, 'search');
  });

  it('/api/blogs lists them without their body, for every plan', async () => {
    for (const [type, kinds] of [['buy-sell', ['free', 'Basic', 'Premium']], ['daily-tweet', ['Premium', 'admin']]] as const) {
      for (const kind of kinds) {
        const url = new URL(`/api/blogs?type=${type}`, site);
        const response = await blogsResponse(db, new Request(url), url, reader(kind));
        expect(response.status, `${type} for ${kind}`).toBe(200);
        const text = await response.text();
        expect(text).toContain(type === 'buy-sell' ? `Lead title ${stamp}` : `Tweet title ${stamp}`);
        expectNoBody(text, `/api/blogs?type=${type} for ${kind}`);
      }
    }
  });

  it('post mail: summary and a link, no body', async () => {
    for (const id of [limitedId, fullId]) {
      const mail = postMail((await db.getPost(id))!, site);
      expect(mail.html).toContain(`https://polyindex.example/news/${id}/`);
      expect(mail.text).toContain(`https://polyindex.example/news/${id}/`);
      expectNoBody(mail.html, `mail html of ${id}`);
      expectNoBody(mail.text, `mail text of ${id}`);
    }
  });
});

describe('the full-text page decides by the post\'s own access (the policy table)', () => {
  const limitedId = `members-${stamp}`;
  const fullId = `premium-${stamp}`;
  let container: AstroContainer;

  beforeAll(async () => {
    const now = new Date();
    const at = new Date(now.getTime() - 60_000).toISOString();
    for (const p of [
      post(limitedId, { type: 'buy-sell', access: 'limited', body: `Members text ${stamp}.` }),
      post(fullId, { type: 'plant-news', access: 'full', body: `Premium text ${stamp}.` }),
      post(`open-${stamp}`, { body: `Open text ${stamp}.`, publishAt: at }),
    ]) {
      expect((await db.createPost({ post: p, actor, now })).kind).toBe('written');
    }
    container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
    container.insertPageRoute('/404', NotFound);
  });

  const renderFull = (slug: string, session: Session | null) =>
    container.renderToResponse(FullTextPage, { params: { slug }, request: new Request(new URL(`/news/${slug}/full`, 'http://127.0.0.1:4321')), locals: { session } });

  // [reader, limited post, full post]: 200 = the text; a path = where the reader is sent.
  it.each([
    ['free', 200, '/subscription'],
    ['Basic', 200, '/'],
    ['Standard', 200, '/'],
    ['Premium', 200, 200],
    ['Platinum', 200, 200],
    ['admin', 200, 200],
  ] as const)('%s reader: limited post → %s, full post → %s', async (kind, limited, full) => {
    for (const [id, expected, text] of [[limitedId, limited, 'Members text'], [fullId, full, 'Premium text']] as const) {
      const response = await renderFull(id, reader(kind));
      if (expected === 200) {
        expect(response.status, id).toBe(200);
        expect(response.headers.get('Cache-Control')).toBe('private, no-store');
        expect(await response.text()).toContain(`${text} ${stamp}.`);
      } else {
        expect(response.status, id).toBe(302);
        expect(response.headers.get('Location')).toBe(expected);
        expect(await response.text()).not.toContain(`${text} ${stamp}`);
      }
    }
  });

  it('sends an anonymous visitor to sign in, and a public post\'s full text to its article', async () => {
    for (const id of [limitedId, fullId]) {
      const response = await renderFull(id, null);
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toMatch(/^\/register\?next=/);
      expect(decodeURIComponent(response.headers.get('Location')!)).toContain(`/news/${id}/full`);
    }
    const open = await renderFull(`open-${stamp}`, null);
    expect(open.status).toBe(301);
    expect(open.headers.get('Location')).toBe(`/news/open-${stamp}`);
  });
});

describe('JSON-LD, labels and list paths', () => {
  const data = entryOf(post('ld', { access: 'limited', tags: ['PP'] }), 'none').data;
  it('marks a gated post as not free, with the paywalled part; a public one as free', () => {
    expect(articleJsonLd(data, { site, imageUrl: 'https://polyindex.example/card.png' })).toMatchObject({
      '@type': 'NewsArticle',
      headline: 'Post ld',
      isAccessibleForFree: false,
      hasPart: { '@type': 'WebPageElement', isAccessibleForFree: false, cssSelector: '.paywalled' },
      url: 'https://polyindex.example/news/ld/',
      image: ['https://polyindex.example/card.png'],
      keywords: 'PP',
    });
    const open = articleJsonLd({ ...data, access: 'public' }, { site });
    expect(open['isAccessibleForFree']).toBe(true);
    expect(open['hasPart']).toBeUndefined();
  });

  it('serialises so that no text can close the script element', () => {
    const text = jsonLdScript({ headline: 'a </script><script>alert(1)</script>' });
    expect(text).not.toContain('</script>');
  });

  it.each([
    [null, 1, '/news'], [null, 2, '/news/page/2'], ['daily-tweet', 1, '/news/type/daily-tweet'], ['future-trend/PP', 3, '/news/type/future-trend/PP/page/3'],
  ] as const)('%s page %i is at %s', (type, page, path) => expect(newsListPath(type, page)).toBe(path));

  it.each([
    ['plant-news', { type: 'plant-news', page: 1 }], ['future-trend/PP/page/3', { type: 'future-trend/PP', page: 3 }], ['global-bazaar/India', { type: 'global-bazaar/India', page: 1 }],
    ['plant-news/page/1', null], ['plant-news/page/0', null], ['nonsense', null], ['future-trend/XX', null], ['plant-news/page/x', null],
  ] as const)('list path %s → %j', (path, expected) => expect(parseListPath(path)).toEqual(expected));

  it('labels types from the catalog', () => {
    expect(newsTypeLabel('future-trend/nylon-6-nylon-66')).toBe('Future trend: Nylon 6 / Nylon 66');
    expect(newsTypeLabel('global-bazaar/ksa')).toBe('Global Bazaar: Saudi Arabia');
    expect(newsTypeLabel('services/press-release')).toBe('Press releases');
    expect(newsTypeLabel('rateRevision')).toBe('Rate revisions');
    expect(newsTypeLabel('vip-delegations')).toBe('VIP delegations');
  });
});

describe('ETag and 304 for pages shared caches keep', () => {
  const run = async (response: Response, ifNoneMatch?: string) => {
    const request = new Request('http://127.0.0.1:4321/news', { headers: ifNoneMatch ? { 'If-None-Match': ifNoneMatch } : {} });
    return (await conditionalGet({ isPrerendered: false, request } as unknown as APIContext, async () => response)) as Response;
  };
  const page = (cache: string, type = 'text/html') => new Response('<p>same for everyone</p>', { headers: { 'Content-Type': type, 'Cache-Control': cache } });

  it('tags a public page and answers 304 when the client has it', async () => {
    const first = await run(page(PUBLIC_PAGE_CACHE));
    const etag = first.headers.get('ETag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(await first.text()).toBe('<p>same for everyone</p>');
    const again = await run(page(PUBLIC_PAGE_CACHE), etag!);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('Cache-Control')).toBe(PUBLIC_PAGE_CACHE);
    expect((await run(page(PUBLIC_PAGE_CACHE), '"other"')).status).toBe(200);
  });

  it('leaves private pages, JSON and tagged answers alone', async () => {
    expect((await run(page('private, no-cache'))).headers.get('ETag')).toBeNull();
    expect((await run(page(PUBLIC_PAGE_CACHE, 'application/json'))).headers.get('ETag')).toBeNull();
    const tagged = new Response('x', { headers: { 'Content-Type': 'text/html', 'Cache-Control': PUBLIC_PAGE_CACHE, ETag: '"own"' } });
    expect((await run(tagged)).headers.get('ETag')).toBe('"own"');
  });
});
