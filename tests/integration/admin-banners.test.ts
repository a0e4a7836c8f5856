/**
 * The banner endpoints against the real store and DATA_DIR: refused to non-admins, an image of
 * an accepted type and size is stored in the store (nothing under DATA_DIR/banners) and served
 * from it (type, strong ETag, 304, immutable), every bad input writes nothing, moves and
 * removals reorder the list that /api/carousels/ answers, and each change is audited. An image
 * file left in DATA_DIR/banners by an older version is still served and copied into the store.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIContext, APIRoute } from 'astro';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as addRoute } from '../../src/pages/api/admin/banners/index.ts';
import { POST as moveRoute } from '../../src/pages/api/admin/banners/[id]/move.ts';
import { POST as removeRoute } from '../../src/pages/api/admin/banners/[id]/remove.ts';
import { GET as carousels } from '../../src/pages/api/carousels/index.ts';
import { GET as imageRoute } from '../../src/pages/api/carousels/images/[file].ts';
import { MAX_BANNER_BYTES } from '../../src/lib/admin/bannerImage.ts';
import { bannerDir } from '../../src/server/admin/bannerChanges.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { store } from '../../src/server/runtime.ts';
import { bannerTarget } from '../../src/server/store/bannerAdmin.ts';
import type { Store } from '../../src/server/store/index.ts';
import type { UserRecord } from '../../src/server/store/users.ts';

const ORIGIN = 'http://127.0.0.1:4321';
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const GIF = new TextEncoder().encode('GIF89a........');
let db: Store;
let seq = 0;
let admin: UserRecord;
const stamp = Date.now().toString(36);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
type Answer = { status: number; json: any };

const user = (prefix: string, extra: Partial<UserRecord> = {}): UserRecord => {
  const uid = `${prefix}-${stamp}-${++seq}`;
  return { uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, plan: null, createdAt: '01-01-2026', ...extra };
};
const sessionOf = (r: UserRecord, entitlement: Session['entitlement'] = r.role === 'admin' ? 'admin' : 'none'): Session => ({ uid: r.uid, email: r.email, record: r, entitlement, inTrial: false });

beforeAll(async () => {
  db = await store();
  admin = user('banner-admin', { role: 'admin' });
  expect(await db.createUser(admin)).toBe(true);
});

async function call(route: APIRoute, path: string, params: Record<string, string>, body: BodyInit, headers: Record<string, string>, session: Session | null = sessionOf(admin)): Promise<Answer> {
  const url = new URL(path, ORIGIN);
  const request = new Request(url, { method: 'POST', headers: { origin: ORIGIN, ...headers }, body });
  const response = await route({ request, url, params, locals: { session } } as unknown as APIContext);
  return { status: response.status, json: await response.json() };
}

function bannerForm(fields: Partial<Record<'alt' | 'title' | 'subtitle' | 'href', string>>, image: Uint8Array | null, name = 'banner.png'): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (image) form.set('image', new File([Buffer.from(image)], name, { type: 'image/png' }));
  return form;
}

const add = (form: FormData, session?: Session | null) => call(addRoute, '/api/admin/banners', {}, form, {}, session);
const move = (id: string, direction: string) => call(moveRoute, `/api/admin/banners/${id}/move`, { id }, JSON.stringify({ direction }), { 'content-type': 'application/json' });
const remove = (id: string, session?: Session | null) => call(removeRoute, `/api/admin/banners/${id}/remove`, { id }, '{}', { 'content-type': 'application/json' }, session);
const ids = async () => (await db.listBanners()).map((b) => b.id);
const good = (title: string) => ({ alt: `A chart for ${title}`, title, subtitle: 'sub', href: '/crude/Naphtha' });

/** The files under DATA_DIR/banners (none: images live in the store). */
const bannerFiles = (): string[] => (existsSync(bannerDir()) ? readdirSync(bannerDir()).sort() : []);

async function expectNothingWritten(work: () => Promise<Answer>): Promise<Answer> {
  const before = await db.listBanners();
  const total = (await db.listAudit()).total;
  const files = bannerFiles();
  const put = vi.spyOn(db, 'putBannerImage');
  try {
    const answer = await work();
    expect(await db.listBanners()).toEqual(before);
    expect((await db.listAudit()).total).toBe(total);
    expect(put).not.toHaveBeenCalled();
    expect(bannerFiles()).toEqual(files);
    return answer;
  } finally {
    put.mockRestore();
  }
}

const getImage = (file: string, headers: Record<string, string> = {}) =>
  imageRoute({ params: { file }, request: new Request(`${ORIGIN}/api/carousels/images/${file}`, { headers }) } as unknown as APIContext);
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('banner endpoints', () => {
  it('refuse anonymous (401), premium / free and a forged admin (403), and another site', async () => {
    const premium = user('banner-premium', { subscribed: true, plan: 'Premium', expiresAt: '2099-01-01T00:00:00.000Z' });
    const free = user('banner-free');
    const first = (await ids())[0] ?? 'x';
    expect((await expectNothingWritten(() => add(bannerForm(good('anon'), PNG), null))).status).toBe(401);
    expect((await expectNothingWritten(() => remove(first, null))).status).toBe(401);
    for (const who of [sessionOf(premium, 'full'), sessionOf(free, 'none'), { ...sessionOf(free), entitlement: 'admin' as const }]) {
      expect((await expectNothingWritten(() => add(bannerForm(good('x'), PNG), who))).status).toBe(403);
      expect((await expectNothingWritten(() => remove(first, who))).status).toBe(403);
    }
    const url = new URL('/api/admin/banners', ORIGIN);
    const request = new Request(url, { method: 'POST', headers: { origin: 'https://evil.example' }, body: bannerForm(good('x'), PNG) });
    expect((await addRoute({ request, url, params: {}, locals: { session: sessionOf(admin) } } as unknown as APIContext)).status).toBe(403);
  });

  it.each([
    ['no alt text', bannerForm({ ...good('a'), alt: '' }, PNG), 400, 'alt'],
    ['no title', bannerForm({ ...good('a'), title: '' }, PNG), 400, 'title'],
    ['a link to another site', bannerForm({ ...good('a'), href: 'https://evil.example/' }, PNG), 400, 'href'],
    ['a javascript: link', bannerForm({ ...good('a'), href: 'javascript:alert(1)' }, PNG), 400, 'href'],
    ['no image', bannerForm(good('a'), null), 400, 'image'],
    ['an SVG image', bannerForm(good('a'), SVG, 'x.svg'), 400, 'image'],
    ['a GIF named .png', bannerForm(good('a'), GIF), 400, 'image'],
  ])('refuses %s, writing nothing', async (_name, form, status, field) => {
    const answer = await expectNothingWritten(() => add(form));
    expect(answer).toMatchObject({ status, json: { error: { field } } });
  });

  it('refuses an image above 2 MiB (413) and a body that is not a form (415)', async () => {
    const big = new Uint8Array(MAX_BANNER_BYTES + 1);
    big.set(PNG);
    expect((await expectNothingWritten(() => add(bannerForm(good('big'), big)))).status).toBe(413);
    expect((await expectNothingWritten(() => call(addRoute, '/api/admin/banners', {}, JSON.stringify(good('j')), { 'content-type': 'application/json' }))).status).toBe(415);
  });

  it('adds (stored, served, in /api/carousels/), moves and removes, each audited', async () => {
    const files = bannerFiles();
    const added = await add(bannerForm(good(`First ${stamp}`), PNG));
    expect(added.status).toBe(200);
    const banner = (await db.listBanners()).find((b) => b.title === `First ${stamp}`)!;
    expect(banner).toMatchObject({ alt: `A chart for First ${stamp}`, href: '/crude/Naphtha' });
    expect(banner.order).toBe((await ids()).length);
    const file = banner.image.replace('/api/carousels/images/', '');
    expect(file).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.png$/);
    // The bytes are in the store, and nothing was written under DATA_DIR/banners.
    const stored = await db.getBannerImage(file);
    expect(stored).toMatchObject({ name: file, contentType: 'image/png', sha256: sha256(PNG) });
    expect(new Uint8Array(stored!.bytes)).toEqual(PNG);
    expect(bannerFiles()).toEqual(files);
    expect(existsSync(join(bannerDir(), file))).toBe(false);

    const served = await getImage(file);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('etag')).toBe(`"${sha256(PNG)}"`);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    const again = await getImage(file, { 'if-none-match': `"${sha256(PNG)}"` });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(`"${sha256(PNG)}"`);
    expect(await again.text()).toBe('');
    for (const stale of ['"other"', `W/"${sha256(PNG)}x"`, 'garbage, ,']) expect((await getImage(file, { 'if-none-match': stale })).status).toBe(200);
    expect((await getImage('../polyindex.db')).status).toBe(404);
    expect((await getImage(`${randomUUID()}.png`)).status).toBe(404);

    const list = await carousels({ request: new Request(`${ORIGIN}/api/carousels/`) } as unknown as APIContext);
    expect(((await list.json()) as { id: string }[]).map((b) => b.id)).toContain(banner.id);

    const before = await ids();
    expect((await move(banner.id, 'up')).status).toBe(200);
    const after = await ids();
    expect(after.indexOf(banner.id)).toBe(before.indexOf(banner.id) - 1);
    expect((await db.listBanners()).map((b) => b.order)).toEqual(after.map((_, i) => i + 1));
    expect((await move(banner.id, 'down')).status).toBe(200);
    expect(await ids()).toEqual(before);
    expect((await expectNothingWritten(() => move(banner.id, 'down'))).json).toMatchObject({ changed: false }); // already last
    expect((await expectNothingWritten(() => move(banner.id, 'sideways'))).status).toBe(400);
    expect((await expectNothingWritten(() => move('no-such-banner', 'up'))).status).toBe(404);

    expect((await remove(banner.id)).status).toBe(200);
    expect(await ids()).not.toContain(banner.id);
    expect(await db.getBannerImage(file)).toBeNull();
    expect((await getImage(file)).status).toBe(404);
    expect(bannerFiles()).toEqual(files);
    const entries = (await db.listAudit({ target: bannerTarget(banner.id) })).entries.map((e) => [e.action, e.actor.uid]);
    expect(entries).toEqual([
      ['banner.remove', admin.uid],
      ['banner.move', admin.uid],
      ['banner.move', admin.uid],
      ['banner.add', admin.uid],
    ]);
  });

  it('takes the image back out of the store when the banner cannot be written', async () => {
    const put = vi.spyOn(db, 'putBannerImage');
    vi.spyOn(db, 'adminAddBanner').mockRejectedValueOnce(new Error('the store is down'));
    await expect(add(bannerForm(good(`Broken ${stamp}`), PNG))).rejects.toThrow('the store is down');
    const name = put.mock.calls[0]![0].name;
    expect(await db.getBannerImage(name)).toBeNull();
    expect((await db.listBanners()).map((b) => b.title)).not.toContain(`Broken ${stamp}`);
  });

  it('serves an image file left in DATA_DIR/banners by an older version, and copies it into the store once', async () => {
    const name = `${randomUUID()}.png`;
    const legacy = Uint8Array.from([...PNG, 1, 2, 3]);
    mkdirSync(bannerDir(), { recursive: true });
    writeFileSync(join(bannerDir(), name), legacy);
    try {
      expect(await db.getBannerImage(name)).toBeNull();
      const put = vi.spyOn(db, 'putBannerImage');
      const first = await getImage(name);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('image/png');
      expect(first.headers.get('etag')).toBe(`"${sha256(legacy)}"`);
      expect(new Uint8Array(await first.arrayBuffer())).toEqual(legacy);
      expect((await db.getBannerImage(name))?.sha256).toBe(sha256(legacy));
      expect((await getImage(name, { 'if-none-match': `"${sha256(legacy)}"` })).status).toBe(304);
      expect(put).toHaveBeenCalledTimes(1); // copied once: later answers come from the store

      // Another instance (no such file there) answers from the store.
      rmSync(join(bannerDir(), name));
      const second = await getImage(name);
      expect(second.status).toBe(200);
      expect(new Uint8Array(await second.arrayBuffer())).toEqual(legacy);
      expect(put).toHaveBeenCalledTimes(1);

      // Removing a banner of such an image removes the store's copy and the old file.
      writeFileSync(join(bannerDir(), name), legacy);
      const id = name.replace(/\.png$/, '');
      const listed = await db.adminAddBanner({ banner: { id, title: `Legacy ${stamp}`, subtitle: '', href: '/', image: `/api/carousels/images/${name}`, alt: 'An older banner' }, actor: { uid: admin.uid, email: admin.email }, now: new Date() });
      expect(listed.kind).toBe('written');
      expect((await remove(id)).status).toBe(200);
      expect(await db.getBannerImage(name)).toBeNull();
      expect(existsSync(join(bannerDir(), name))).toBe(false);
      expect((await getImage(name)).status).toBe(404);
    } finally {
      rmSync(join(bannerDir(), name), { force: true });
    }
  });

  it('leaves the seed banners\' static images alone when such a banner is removed', async () => {
    const seed = (await db.listBanners()).find((b) => !b.image.startsWith('/api/carousels/images/'));
    expect(seed?.image).toMatch(/^\/banners\/.+\.svg$/);
    const deleted = vi.spyOn(db, 'deleteBannerImage');
    expect((await remove(seed!.id)).status).toBe(200);
    expect(deleted).not.toHaveBeenCalled();
    await db.adminAddBanner({ banner: seed!, actor: { uid: admin.uid, email: admin.email }, now: new Date() });
  });
});
