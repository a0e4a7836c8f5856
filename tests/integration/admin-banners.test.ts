/**
 * The banner endpoints against the real store and DATA_DIR: refused to non-admins, an image of
 * an accepted type and size is stored and served, every bad input writes nothing, moves and
 * removals reorder the list that /api/carousels/ answers, and each change is audited.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { APIContext, APIRoute } from 'astro';
import { beforeAll, describe, expect, it } from 'vitest';
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

async function expectNothingWritten(work: () => Promise<Answer>): Promise<Answer> {
  const before = await db.listBanners();
  const total = (await db.listAudit()).total;
  const answer = await work();
  expect(await db.listBanners()).toEqual(before);
  expect((await db.listAudit()).total).toBe(total);
  return answer;
}

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
    const added = await add(bannerForm(good(`First ${stamp}`), PNG));
    expect(added.status).toBe(200);
    const banner = (await db.listBanners()).find((b) => b.title === `First ${stamp}`)!;
    expect(banner).toMatchObject({ alt: `A chart for First ${stamp}`, href: '/crude/Naphtha' });
    expect(banner.order).toBe((await ids()).length);
    const file = banner.image.replace('/api/carousels/images/', '');
    expect(existsSync(join(bannerDir(), file))).toBe(true);
    const served = await imageRoute({ params: { file }, request: new Request(`${ORIGIN}${banner.image}`) } as unknown as APIContext);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    expect((await imageRoute({ params: { file: '../polyindex.db' }, request: new Request(ORIGIN) } as unknown as APIContext)).status).toBe(404);

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
    expect(existsSync(join(bannerDir(), file))).toBe(false);
    const entries = (await db.listAudit({ target: bannerTarget(banner.id) })).entries.map((e) => [e.action, e.actor.uid]);
    expect(entries).toEqual([
      ['banner.remove', admin.uid],
      ['banner.move', admin.uid],
      ['banner.move', admin.uid],
      ['banner.add', admin.uid],
    ]);
  });
});
