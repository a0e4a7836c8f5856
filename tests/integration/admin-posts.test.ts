/**
 * The newsroom's endpoints (/api/admin/posts…) called through their handlers and through the
 * real middleware with emulator cookies, against the site's SQLite store: who may use them
 * (editors and admins; everyone else 401/403, other admin endpoints still 403 to an editor),
 * every bad input a 400 naming the field with nothing written, the status rules, slug history,
 * soft delete, cover upload (decoded, re-encoded, served with an ETag) and the test mail.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIContext, APIRoute } from 'astro';
import { simpleParser } from 'mailparser';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { onRequest } from '../../src/middleware.ts';
import { POST as coverRoute } from '../../src/pages/api/admin/posts/[id]/cover.ts';
import { POST as testMailRoute } from '../../src/pages/api/admin/posts/[id]/test-mail.ts';
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from '../../src/pages/api/admin/posts/[id].ts';
import { GET as listRoute, POST as createRoute } from '../../src/pages/api/admin/posts/index.ts';
import { POST as previewRoute } from '../../src/pages/api/admin/posts/preview.ts';
import { GET as usersApi } from '../../src/pages/api/admin/users/index.ts';
import { POST as bannerMoveRoute } from '../../src/pages/api/admin/banners/[id]/move.ts';
import { GET as imageRoute } from '../../src/pages/news/images/[file].ts';
import { POST as signInEndpoint } from '../../src/pages/api/auth/session.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { SESSION_COOKIE } from '../../src/server/auth/sessions.ts';
import { outboxDir } from '../../src/server/mail/index.ts';
import { store } from '../../src/server/runtime.ts';
import type { Store } from '../../src/server/store/index.ts';
import { postTarget } from '../../src/server/store/posts.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { apiContext, emulatorSignUp, sessionOf, uniqueEmail } from './helpers.ts';

const ORIGIN = 'http://127.0.0.1:4321';
let db: Store;
let seq = 0;
const stamp = Date.now().toString(36);

async function user(prefix: string, extra: Partial<UserRecord> = {}): Promise<UserRecord> {
  const uid = `${prefix}-${stamp}-${++seq}`;
  const record: UserRecord = { uid, displayName: `Desk ${uid}`, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, plan: null, createdAt: '01-01-2026', ...extra };
  expect(await db.createUser(record)).toBe(true);
  return record;
}

let editor: UserRecord;
let admin: UserRecord;
let premium: UserRecord;
beforeAll(async () => {
  db = await store();
  editor = await user('editor', { role: 'editor' });
  admin = await user('admin', { role: 'admin' });
  premium = await user('premium', { subscribed: true, plan: 'Premium', expiresAt: '2099-01-01T00:00:00.000Z' });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
type Answer = { status: number; json: any; headers: Headers };

interface Call {
  readonly method?: string;
  readonly body?: unknown;
  readonly raw?: BodyInit;
  readonly contentType?: string | null;
  readonly session?: Session | null;
  readonly params?: Record<string, string>;
  readonly origin?: string | null;
  readonly path?: string;
}

async function call(route: APIRoute, options: Call = {}): Promise<Answer> {
  const url = new URL(options.path ?? '/api/admin/posts', ORIGIN);
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = {};
  if (options.contentType !== null && method !== 'GET') headers['content-type'] = options.contentType ?? 'application/json';
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  if (origin !== null) headers['origin'] = origin;
  const body = method === 'GET' ? undefined : (options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)));
  const request = new Request(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const context = { request, url, params: options.params ?? {}, site: new URL(ORIGIN), locals: { session: options.session === undefined ? sessionOf(editor, 'none') : options.session } } as unknown as APIContext;
  const response = await route(context);
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null, headers: response.headers };
}

const newPost = (over: Record<string, unknown> = {}) => ({ type: 'plant-news', title: `Cracker restart ${stamp} ${++seq}`, summary: 'The unit is back.', body: 'First paragraph.\n\nSecond.', ...over });

async function created(over: Record<string, unknown> = {}): Promise<{ id: string; slug: string }> {
  const answer = await call(createRoute, { body: newPost(over) });
  expect(answer.status, JSON.stringify(answer.json)).toBe(201);
  return answer.json as { id: string; slug: string };
}

const auditCount = async () => (await db.listAudit()).total;

async function expectNothingWritten(work: () => Promise<Answer>): Promise<Answer> {
  const before = { posts: (await db.listPosts({ limit: 500 })).total, deleted: (await db.listPosts({ deleted: true })).total, audit: await auditCount() };
  const answer = await work();
  expect({ posts: (await db.listPosts({ limit: 500 })).total, deleted: (await db.listPosts({ deleted: true })).total, audit: await auditCount() }).toEqual(before);
  return answer;
}

describe('who may use the newsroom endpoints', () => {
  it('refuses anonymous (401), members of any plan (403), a forged entitlement (403) and another site (403), writing nothing', async () => {
    const free = await user('free');
    for (const [session, status] of [
      [null, 401],
      [sessionOf(premium, 'full'), 403],
      [sessionOf(free, 'none'), 403],
      [sessionOf(premium, 'admin'), 403],
    ] as const) {
      const answer = await expectNothingWritten(() => call(createRoute, { body: newPost(), session }));
      expect(answer.status).toBe(status);
      expect((await call(listRoute, { method: 'GET', session })).status).toBe(status);
      expect((await call(previewRoute, { body: { body: 'x' }, session })).status).toBe(status);
    }
    const crossSite = await expectNothingWritten(() => call(createRoute, { body: newPost(), origin: 'https://evil.example' }));
    expect(crossSite).toMatchObject({ status: 403, json: { error: { code: 'cross_origin' } } });
  });

  it('lets an editor and an admin write; an editor still gets 403 from the other admin endpoints', async () => {
    expect((await call(createRoute, { body: newPost(), session: sessionOf(editor, 'none') })).status).toBe(201);
    expect((await call(createRoute, { body: newPost(), session: sessionOf(admin, 'admin') })).status).toBe(201);
    expect((await call(usersApi, { method: 'GET', path: '/api/admin/users', session: sessionOf(editor, 'none') })).status).toBe(403);
    // Banners belong to the newsroom: an unknown banner is a 404, not a refusal.
    expect((await call(bannerMoveRoute, { path: '/api/admin/banners/none/move', params: { id: 'none' }, body: { direction: 'up' } })).status).toBe(404);
  });
});

describe('through the real middleware and emulator cookies', () => {
  async function signedIn(state: Partial<UserRecord>): Promise<string> {
    const { idToken, uid } = await emulatorSignUp(uniqueEmail('posts-mw'));
    const { context, set } = apiContext('/api/auth/session', { method: 'POST', headers: { Origin: ORIGIN, 'Content-Type': 'application/json' }, body: JSON.stringify({ idToken }) });
    expect((await signInEndpoint(context)).status).toBe(200);
    await db.updateUsersBy('uid', uid, state);
    return set[SESSION_COOKIE]!.value;
  }
  const through = async (cookie: string | undefined, path: string, route: APIRoute, routePattern: string, body?: unknown) => {
    const { context } = apiContext(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      routePattern,
      ...(cookie ? { cookies: { [SESSION_COOKIE]: cookie } } : {}),
    });
    return (await onRequest(context, async () => route(context))) as Response;
  };

  it('posts: anonymous 401, premium / basic / free 403, editor and admin 200; users: editor 403', async () => {
    const future = new Date(Date.now() + 100 * 86_400_000).toISOString();
    expect((await through(undefined, '/api/admin/posts', listRoute, '/api/admin/posts')).status).toBe(401);
    for (const state of [{ subscribed: true, plan: 'Premium', expiresAt: future }, { subscribed: true, plan: 'Basic', expiresAt: future }, { createdAt: '01-01-2020' }]) {
      expect((await through(await signedIn(state), '/api/admin/posts', listRoute, '/api/admin/posts')).status).toBe(403);
    }
    const editorCookie = await signedIn({ role: 'editor', createdAt: '01-01-2020' });
    expect((await through(editorCookie, '/api/admin/posts', listRoute, '/api/admin/posts')).status).toBe(200);
    expect((await through(editorCookie, '/api/admin/posts', createRoute, '/api/admin/posts', newPost())).status).toBe(201);
    expect((await through(editorCookie, '/api/admin/users', usersApi, '/api/admin/users')).status).toBe(403);
    expect((await through(await signedIn({ role: 'admin' }), '/api/admin/posts', listRoute, '/api/admin/posts')).status).toBe(200);
  });
});

describe('creating a post', () => {
  it('answers 201 {id, slug, url} with one audit entry, a draft by default', async () => {
    const audit = await auditCount();
    const answer = await call(createRoute, { body: newPost({ title: `Reliance cuts PP ${stamp}`, tags: 'PP, Reliance' }) });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ id: expect.any(String), slug: expect.stringMatching(/^\d{4}-\d{2}-\d{2}-reliance-cuts-pp-/), url: `/news/${answer.json.slug}` });
    const post = await db.getPost(answer.json.id);
    expect(post).toMatchObject({ status: 'draft', access: 'public', authorUid: editor.uid, author: editor.displayName, tags: ['PP', 'Reliance'] });
    expect(await auditCount()).toBe(audit + 1);
    expect((await db.listAudit({ target: postTarget(answer.json.id) })).entries[0]).toMatchObject({ action: 'post.create', actor: { uid: editor.uid } });
  });

  it('gives a title that is taken another slug, and refuses a chosen slug that is taken', async () => {
    const title = `Same title ${stamp}`;
    const a = await created({ title });
    const b = await created({ title });
    expect(b.slug).toBe(`${a.slug}-2`);
    const clash = await expectNothingWritten(() => call(createRoute, { body: newPost({ slug: a.slug }) }));
    expect(clash).toMatchObject({ status: 409, json: { error: { code: 'slug_taken', field: 'slug' } } });
  });

  it('publishes at once, or schedules for a time in India', async () => {
    const live = await created({ status: 'published' });
    expect(await db.getPost(live.id)).toMatchObject({ status: 'published', publishAt: expect.any(String) });
    const soon = await created({ status: 'scheduled', publishAt: '2099-01-01T09:30' });
    expect((await db.getPost(soon.id))?.publishAt).toBe('2099-01-01T04:00:00.000Z');
  });

  it.each([
    ['an empty title', { title: '' }, 'title'],
    ['a title of 201 characters', { title: 'x'.repeat(201) }, 'title'],
    ['a number as title', { title: 42 }, 'title'],
    ['an unknown type', { type: 'gossip' }, 'type'],
    ['no type', { type: undefined }, 'type'],
    ['an empty body', { body: '' }, 'body'],
    ['a body of 50,001 characters', { body: 'x'.repeat(50_001) }, 'body'],
    ['a summary of 501 characters', { summary: 'x'.repeat(501) }, 'summary'],
    ['an unknown access', { access: 'secret' }, 'access'],
    ['an unknown status', { status: 'live' }, 'status'],
    ['a schedule without a time', { status: 'scheduled' }, 'publishAt'],
    ['a schedule in the past', { status: 'scheduled', publishAt: '2020-01-01T10:00' }, 'publishAt'],
    ['publishing in the future', { status: 'published', publishAt: '2099-01-01T10:00' }, 'publishAt'],
    ['a time that is no time', { publishAt: 'tomorrow' }, 'publishAt'],
    ['30 February', { publishAt: '2026-02-30T10:00' }, 'publishAt'],
    // Year 10000 once normalised (+010000-…), which stores' text order puts before 2026: live at once.
    ['a schedule past year 9999 by its offset', { status: 'scheduled', publishAt: '9999-12-31T23:59-05:00' }, 'publishAt'],
    ['a schedule in year 3000 (India time)', { status: 'scheduled', publishAt: '3000-01-01T10:00' }, 'publishAt'],
    ['an expanded ISO year', { status: 'scheduled', publishAt: '+010000-01-01T04:59:00.000Z' }, 'publishAt'],
    ['a slug with spaces and capitals', { slug: 'Not a slug' }, 'slug'],
    ['the slug of the search page', { slug: 'search' }, 'slug'],
    ['the slug of the image path', { slug: 'images' }, 'slug'],
    ['21 tags', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
    ['a number as tags', { tags: 7 }, 'tags'],
    ['an empty byline', { author: '' }, 'author'],
    ['a cover in a new post', { cover: null }, undefined],
    ['an unknown field', { unknown: 1 }, undefined],
  ] as const)('refuses %s, writing nothing', async (_name, over, field) => {
    const answer = await expectNothingWritten(() => call(createRoute, { body: newPost(over as Record<string, unknown>) }));
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('invalid_input');
    if (field) expect(answer.json.error.field).toBe(field);
    expect(answer.json.error.message.length).toBeGreaterThan(5);
  });

  it.each([
    ['not JSON', { raw: '{nope' }, 400, 'invalid_body'],
    ['an array', { body: [1] }, 400, 'invalid_input'],
    ['text/plain', { raw: '{}', contentType: 'text/plain' }, 415, 'unsupported_media_type'],
    ['no content type', { raw: '{}', contentType: null }, 415, 'unsupported_media_type'],
    ['over 256 KiB', { raw: JSON.stringify({ body: 'x'.repeat(300 * 1024) }) }, 413, 'too_large'],
  ] as const)('answers %s with %i, writing nothing', async (_name, options, status, code) => {
    const answer = await expectNothingWritten(() => call(createRoute, options as Call));
    expect(answer).toMatchObject({ status, json: { error: { code } } });
  });
});

describe('changing a post', () => {
  const patch = (id: string, body: unknown, session?: Session) => call(patchRoute, { method: 'PATCH', path: `/api/admin/posts/${id}`, params: { id }, body, ...(session ? { session } : {}) });

  it('edits, publishes, unpublishes, each audited by what it did; a no-op writes nothing', async () => {
    const { id } = await created();
    expect((await patch(id, { title: 'A better title' })).json).toMatchObject({ changed: true });
    expect((await patch(id, { status: 'published' })).json).toMatchObject({ changed: true, post: { status: 'published' } });
    expect((await patch(id, { status: 'unpublished' })).json).toMatchObject({ changed: true, post: { status: 'unpublished' } });
    const same = await expectNothingWritten(() => patch(id, { title: 'A better title' }));
    expect(same).toMatchObject({ status: 200, json: { changed: false } });
    const actions = (await db.listAudit({ target: postTarget(id) })).entries.map((e) => e.action);
    expect(actions).toEqual(['post.unpublish', 'post.publish', 'post.update', 'post.create']);
    const edit = (await db.listAudit({ target: postTarget(id) })).entries[2]!;
    expect(edit.before).toMatchObject({ title: expect.stringContaining('Cracker restart') });
    expect(edit.after).toMatchObject({ title: 'A better title' });
  });

  it('keeps the publish time of a post put back, and schedules only into the future', async () => {
    const { id } = await created({ status: 'published' });
    const first = (await db.getPost(id))!.publishAt;
    await patch(id, { status: 'unpublished' });
    await patch(id, { status: 'published' });
    expect((await db.getPost(id))!.publishAt).toBe(first);
    const past = await expectNothingWritten(() => patch(id, { status: 'scheduled', publishAt: '2020-01-01T10:00' }));
    expect(past).toMatchObject({ status: 400, json: { error: { field: 'publishAt' } } });
    expect((await patch(id, { status: 'scheduled', publishAt: '2099-05-01T10:00' })).json).toMatchObject({ changed: true, post: { status: 'scheduled', publishAt: '2099-05-01T04:30:00.000Z' } });
  });

  it('changes the slug and keeps the old one for a 301', async () => {
    const { id, slug } = await created();
    const answer = await patch(id, { slug: `renamed-${stamp}` });
    expect(answer.json).toMatchObject({ changed: true, slug: `renamed-${stamp}`, post: { oldSlugs: [slug] } });
    expect(await db.findPostBySlug(slug)).toMatchObject({ current: false, post: { id } });
    expect((await db.listAudit({ target: postTarget(id) })).entries[0]!.action).toBe('post.slug');
    const other = await created();
    const clash = await expectNothingWritten(() => patch(other.id, { slug }));
    expect(clash).toMatchObject({ status: 409, json: { error: { code: 'slug_taken', field: 'slug' } } });
  });

  it('soft-deletes: readers lose it, the desk can list and restore it; a deleted post refuses edits', async () => {
    const { id, slug } = await created({ status: 'published' });
    const del = await call(deleteRoute, { method: 'DELETE', path: `/api/admin/posts/${id}`, params: { id }, contentType: null });
    expect(del).toMatchObject({ status: 200, json: { deleted: true, changed: true } });
    expect(await db.getPost(id)).toMatchObject({ deletedAt: expect.any(String) });
    expect((await db.livePosts({ limit: 500 }, new Date())).map((p) => p.id)).not.toContain(id);
    expect((await db.findPostBySlug(slug))?.post.id).toBe(id);
    const locked = await expectNothingWritten(() => patch(id, { title: 'Edit while deleted' }));
    expect(locked).toMatchObject({ status: 409, json: { error: { code: 'deleted' } } });
    const listed = await call(listRoute, { method: 'GET', path: '/api/admin/posts?deleted=1' });
    expect(listed.json.posts.map((p: { id: string }) => p.id)).toContain(id);
    expect((await patch(id, { restore: true })).json).toMatchObject({ changed: true, post: { deletedAt: null, status: 'published' } });
    expect((await db.listAudit({ target: postTarget(id) })).entries.map((e) => e.action).slice(0, 2)).toEqual(['post.restore', 'post.delete']);
  });

  it('answers 404 for an unknown post and 400 for bad patches, writing nothing', async () => {
    expect((await patch('no-such-post', { title: 'x' })).status).toBe(404);
    expect((await call(getRoute, { method: 'GET', path: '/api/admin/posts/no-such', params: { id: 'no-such' } })).status).toBe(404);
    const { id } = await created();
    for (const [body, field] of [[{ title: '' }, 'title'], [{ status: 'gone' }, 'status'], [{ cover: 'x' }, 'cover'], [{ restore: false }, 'restore'], [{ slug: 'UPPER case' }, 'slug'], [{ extra: 1 }, undefined]] as const) {
      const answer = await expectNothingWritten(() => patch(id, body));
      expect(answer.status, JSON.stringify(body)).toBe(400);
      if (field) expect(answer.json.error.field).toBe(field);
    }
  });
});

describe('the desk\'s list and preview', () => {
  it('filters by type, status, month and words (gated bodies included)', async () => {
    const word = `zebrafish${stamp}`;
    const { id } = await created({ type: 'buy-sell', body: `Gated ${word} text.`, access: 'full' });
    const list = async (query: string) => (await call(listRoute, { method: 'GET', path: `/api/admin/posts?${query}` })).json;
    expect((await list(`q=${word}`)).posts.map((p: { id: string }) => p.id)).toEqual([id]);
    expect((await list(`q=${word}&type=buy-sell&status=draft`)).total).toBe(1);
    expect((await list(`q=${word}&type=plant-news`)).total).toBe(0);
    const thisMonth = new Date().toISOString().slice(0, 7);
    expect((await list(`q=${word}&month=${thisMonth}`)).total).toBe(1);
    expect((await list(`q=${word}&month=2001-01`)).total).toBe(0);
    for (const bad of ['type=gossip', 'status=live', 'month=2026-13', 'page=0', 'deleted=yes', `q=${'x'.repeat(201)}`]) {
      const answer = await call(listRoute, { method: 'GET', path: `/api/admin/posts?${bad}` });
      expect(answer.status, bad).toBe(400);
      expect(answer.json.error.field).toBe(bad.split('=')[0]);
    }
  });

  it('previews with the site\'s renderer: the hostile parts inert', async () => {
    const answer = await call(previewRoute, { body: { body: '**bold** <script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1))' } });
    expect(answer.status).toBe(200);
    expect(answer.json.html).toContain('<strong>bold</strong>');
    expect(answer.json.html).not.toMatch(/<script|onerror|javascript:/);
    expect((await call(previewRoute, { body: { body: 7 } })).status).toBe(400);
  });
});

describe('cover images', () => {
  const form = (image: Uint8Array | null, alt: string | null, type = 'image/png') => {
    const data = new FormData();
    if (image) data.set('image', new File([Buffer.from(image)], 'cover.png', { type }));
    if (alt !== null) data.set('alt', alt);
    return data;
  };
  const upload = async (id: string, data: FormData) => {
    const url = new URL(`/api/admin/posts/${id}/cover`, ORIGIN);
    const request = new Request(url, { method: 'POST', headers: { origin: ORIGIN }, body: data });
    const context = { request, url, params: { id }, locals: { session: sessionOf(editor, 'none') } } as unknown as APIContext;
    const response = await coverRoute(context);
    return { status: response.status, json: await response.json() };
  };
  const png = async (width: number, height: number) => new Uint8Array(await sharp({ create: { width, height, channels: 3, background: '#13838f' } }).png().toBuffer());

  it('decodes, re-encodes as WebP at 1200 and 600 px, and serves them with an ETag and immutable caching', async () => {
    const { id } = await created();
    const answer = await upload(id, form(await png(2400, 1260), 'A teal test card'));
    expect(answer.status).toBe(200);
    expect(answer.json.cover).toMatchObject({ alt: 'A teal test card', width: 1200, height: 630 });
    const image = answer.json.cover.image as string;
    for (const [width, height] of [[1200, 630], [600, 315]] as const) {
      const file = `${image}-${width}.webp`;
      const response = await imageRoute({ params: { file }, request: new Request(`${ORIGIN}/news/images/${file}`) } as unknown as APIContext);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect({ width: meta.width, height: meta.height, format: meta.format, exif: meta.exif }).toEqual({ width, height, format: 'webp', exif: undefined });
      const etag = response.headers.get('etag')!;
      const again = await imageRoute({ params: { file }, request: new Request(`${ORIGIN}/news/images/${file}`, { headers: { 'If-None-Match': etag } }) } as unknown as APIContext);
      expect(again.status).toBe(304);
    }
    expect((await db.getPost(id))?.cover?.image).toBe(image);
    expect((await db.listAudit({ target: postTarget(id) })).entries[0]!.action).toBe('post.cover');
    // A small image is not enlarged.
    const small = await upload(id, form(await png(300, 200), 'Small card'));
    expect(small.json.cover).toMatchObject({ width: 300, height: 200 });
  });

  it.each([
    ['no image', null, 'Alt text', 400, 'image'],
    ['no alt text', 'png', null, 400, 'alt'],
    ['an SVG', 'svg', 'Alt text', 400, 'image'],
    ['a GIF named .png', 'gif', 'Alt text', 400, 'image'],
    ['PNG bytes that are not an image', 'broken', 'Alt text', 400, 'image'],
  ] as const)('refuses %s, storing nothing', async (_name, kind, alt, status, field) => {
    const { id } = await created();
    const bytes =
      kind === null ? null
      : kind === 'png' ? await png(40, 40)
      : kind === 'svg' ? new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')
      : kind === 'gif' ? new TextEncoder().encode('GIF89a\x01\x00\x01\x00')
      : new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);
    const answer = await upload(id, form(bytes, alt));
    expect(answer).toMatchObject({ status, json: { error: { field } } });
    expect((await db.getPost(id))?.cover).toBeNull();
  });

  it('answers 404 for an unknown post and for a file name it never serves', async () => {
    expect((await upload('no-such-post', form(await png(40, 40), 'Alt text'))).status).toBe(404);
    for (const file of ['../polyindex.db', 'x.png', `${'a'.repeat(36)}-1200.png`]) {
      expect((await imageRoute({ params: { file }, request: new Request(`${ORIGIN}/news/images/x`) } as unknown as APIContext)).status).toBe(404);
    }
  });
});

describe('the test mail', () => {
  it('sends the post, inert, to the editor\'s own address through the outbox', async () => {
    const { id } = await created({ title: `Mail me ${stamp}`, body: 'Hello <script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>' });
    const before = new Set(existsSync(outboxDir) ? readdirSync(outboxDir) : []);
    const answer = await call(testMailRoute, { path: `/api/admin/posts/${id}/test-mail`, params: { id }, body: {} });
    expect(answer).toMatchObject({ status: 200, json: { sent: true, to: editor.email } });
    const file = readdirSync(outboxDir).find((f) => !before.has(f))!;
    const mail = await simpleParser(readFileSync(join(outboxDir, file)));
    expect(mail.subject).toBe(`PolyIndex: Mail me ${stamp}`);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : '').toBe(editor.email);
    expect(String(mail.html)).not.toMatch(/<script|onerror|javascript:/);
    expect((await call(testMailRoute, { path: '/api/admin/posts/none/test-mail', params: { id: 'none' }, body: {} })).status).toBe(404);
    expect((await call(testMailRoute, { path: `/api/admin/posts/${id}/test-mail`, params: { id }, body: { to: 'someone@else.example' } })).status).toBe(400);
  });
});
