/**
 * The admin pages' own guard (defence in depth): rendered through Astro's container without the
 * middleware, a non-admin session still gets the 404 page and never the admin content.
 */
import { getContainerRenderer } from '@astrojs/react/container-renderer';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { beforeAll, describe, expect, it } from 'vitest';
import NotFound from '../../src/pages/404.astro';
import AuditPage from '../../src/pages/admin/audit.astro';
import Dashboard from '../../src/pages/admin/index.astro';
import UserPage from '../../src/pages/admin/users/[uid].astro';
import UsersPage from '../../src/pages/admin/users/index.astro';
import BannersPage from '../../src/pages/admin/banners.astro';
import OutboxMessagePage from '../../src/pages/admin/outbox/[file].astro';
import OutboxPage from '../../src/pages/admin/outbox/index.astro';
import MarketsPage from '../../src/pages/admin/markets.astro';
import ProducerPricesPage from '../../src/pages/admin/producer-prices/index.astro';
import ImportPage from '../../src/pages/admin/prices/import.astro';
import PricesPage from '../../src/pages/admin/prices/index.astro';
import PostsPage from '../../src/pages/admin/posts/index.astro';
import NewPostPage from '../../src/pages/admin/posts/new.astro';
import EditPostPage from '../../src/pages/admin/posts/[id].astro';
import { outboxDir } from '../../src/server/mail/index.ts';
import { writeOutboxMessage } from '../../src/server/mail/outbox.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { store } from '../../src/server/runtime.ts';
import type { UserRecord } from '../../src/server/store/users.ts';

let container: AstroContainer;
let outboxFile = '';
const HOSTILE = '<img src=x onerror="alert(1)"><script>steal()</script>';
const stamp = Date.now().toString(36);
const record = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra,
});
const admin = record(`pages-admin-${stamp}`, { role: 'admin' });
const premium = record(`pages-premium-${stamp}`, { subscribed: true, plan: 'Premium', expiresAt: '2099-01-01T00:00:00.000Z', secretNote: 'only-for-admins' });
const session = (r: UserRecord, entitlement: Session['entitlement']): Session => ({ uid: r.uid, email: r.email, record: r, entitlement, inTrial: false });

beforeAll(async () => {
  const db = await store();
  await db.createUser(admin);
  await db.createUser(premium);
  const raw = [
    'From: site@polyindex.test',
    'To: ops@polyindex.test',
    `Subject: Enquiry ${stamp}`,
    'Content-Type: multipart/alternative; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    `Hello =E2=82=B9 ${HOSTILE}`,
    '--b1',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<p>${HOSTILE}</p>`,
    '--b1--',
    '',
  ].join('\r\n');
  outboxFile = await writeOutboxMessage(outboxDir, Buffer.from(raw), `<pages-${stamp}@polyindex.test>`);
  container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
  container.insertPageRoute('/404', NotFound);
});

const pages = [
  ['/admin', Dashboard, undefined],
  ['/admin/users', UsersPage, undefined],
  ['/admin/users/{uid}', UserPage, () => ({ uid: premium.uid })],
  ['/admin/audit', AuditPage, undefined],
  ['/admin/prices?series=feedstock.crude.brent', PricesPage, undefined],
  ['/admin/prices/import', ImportPage, undefined],
  ['/admin/banners', BannersPage, undefined],
  ['/admin/markets?city=pune&country=Egypt', MarketsPage, undefined],
  ['/admin/producer-prices?producer=gail', ProducerPricesPage, undefined],
  ['/admin/outbox', OutboxPage, undefined],
  ['/admin/outbox/{file}', OutboxMessagePage, () => ({ file: outboxFile })],
] as const;

async function render(path: string, page: (typeof pages)[number][1], params: Record<string, string> | undefined, who: Session | null) {
  const response = await container.renderToResponse(page, {
    request: new Request(`http://127.0.0.1:4321${path.replace('{uid}', premium.uid).replace('{file}', outboxFile)}`),
    locals: { session: who },
    partial: false,
    ...(params ? { params } : {}),
  });
  return { status: response.status, html: await response.text() };
}

describe('the newsroom pages (posts, banners) check the role themselves: editors and admins', () => {
  const editor = record(`pages-editor-${stamp}`, { role: 'editor' });
  let postId = '';
  beforeAll(async () => {
    const db = await store();
    await db.createUser(editor);
    const at = new Date().toISOString();
    const created = await db.createPost({
      post: { id: `pages-post-${stamp}`, slug: `pages-post-${stamp}`, oldSlugs: [], type: 'plant-news', title: `Desk post ${stamp}`, summary: '', body: `Body <script>steal()</script> ${stamp}`, cover: null, access: 'full', status: 'draft', publishAt: null, author: 'Desk', authorUid: editor.uid, tags: [], createdAt: at, updatedAt: at, deletedAt: null },
      actor: { uid: editor.uid, email: editor.email },
      now: new Date(),
    });
    postId = created.kind === 'written' ? created.post.id : '';
  });
  const newsroom = [
    ['/admin/posts', PostsPage, undefined],
    ['/admin/posts/new', NewPostPage, undefined],
    ['/admin/posts/{post}', EditPostPage, () => ({ id: postId })],
    ['/admin/banners', BannersPage, undefined],
  ] as const;
  const renderAs = async (path: string, page: (typeof newsroom)[number][1], params: Record<string, string> | undefined, who: Session | null) => {
    const response = await container.renderToResponse(page, { request: new Request(`http://127.0.0.1:4321${path.replace('{post}', postId)}`), locals: { session: who }, partial: false, ...(params ? { params } : {}) });
    return { status: response.status, html: await response.text() };
  };

  it.each(newsroom)('%s: 404 for anonymous, premium and a forged entitlement; the page for an editor and an admin', async (path, page, params) => {
    for (const who of [null, session(premium, 'full'), session(premium, 'admin')]) {
      const { status, html } = await renderAs(path, page, params?.(), who);
      expect(status, `${path} as ${who?.entitlement ?? 'anonymous'}`).toBe(404);
      expect(html).not.toContain('admin-nav');
      expect(html).not.toContain(`Desk post ${stamp}`);
    }
    for (const who of [session(editor, 'none'), session(admin, 'admin')]) {
      const { status, html } = await renderAs(path, page, params?.(), who);
      expect(status, `${path} as ${who.record?.role}`).toBe(200);
      expect(html).toContain('aria-label="Admin"');
    }
  });

  it('shows an editor only the newsroom sections in the admin navigation, and the post with its preview rendered inert', async () => {
    const { html } = await renderAs('/admin/posts/{post}', EditPostPage, { id: postId }, session(editor, 'none'));
    const nav = /<nav class="admin-nav"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
    expect(nav).toContain('href="/admin/posts"');
    expect(nav).toContain('href="/admin/banners"');
    expect(nav).not.toContain('href="/admin/users"');
    expect(nav).not.toContain('href="/admin"');
    expect(html).toContain(`Desk post ${stamp}`);
    const preview = /data-testid="preview"[\s\S]*?<\/div>/.exec(html)?.[0] ?? '';
    expect(preview).toContain(stamp);
    expect(preview).not.toContain('<script');
    const list = await renderAs('/admin/posts', PostsPage, undefined, session(editor, 'none'));
    expect(list.html).toContain(`Desk post ${stamp}`);
  });

  it('keeps the rest of the admin area from an editor (the 404 page)', async () => {
    for (const [path, page, params] of pages) {
      if (path === '/admin/banners') continue;
      const { status } = await render(path, page, params?.(), session(editor, 'none'));
      expect(status, path).toBe(404);
    }
  });
});

describe('admin pages check the role themselves', () => {
  it.each(pages)('%s: 404 for anonymous, premium and a forged entitlement; the page for an admin', async (path, page, params) => {
    for (const who of [null, session(premium, 'full'), session(premium, 'admin')]) {
      const { status, html } = await render(path, page, params?.(), who);
      expect(status, `${path} as ${who?.entitlement ?? 'anonymous'}`).toBe(404);
      expect(html).not.toContain('admin-nav');
      expect(html).not.toContain('only-for-admins');
    }
    const { status, html } = await render(path, page, params?.(), session(admin, 'admin'));
    expect(status).toBe(200);
    expect(html).toContain('aria-label="Admin"');
  });

  it('shows every field of the record, unknown ones too, to an admin', async () => {
    const { html } = await render('/admin/users/{uid}', UserPage, { uid: premium.uid }, session(admin, 'admin'));
    expect(html).toContain('secretNote');
    expect(html).toContain('only-for-admins');
  });

  it('an unknown uid is the 404 page', async () => {
    const response = await container.renderToResponse(UserPage, {
      request: new Request('http://127.0.0.1:4321/admin/users/nobody-here'),
      locals: { session: session(admin, 'admin') },
      params: { uid: 'nobody-here' },
      partial: false,
    });
    expect(response.status).toBe(404);
  });

  it('the prices page lists a series’ points with change and delete forms carrying the value shown', async () => {
    const db = await store();
    const [latest] = await db.latestPoints('feedstock.crude.brent', 1);
    const { html } = await render('/admin/prices?series=feedstock.crude.brent', PricesPage, undefined, session(admin, 'admin'));
    expect(html).toContain('data-testid="series-heading"');
    expect(html).toContain(`data-date="${latest!.date}"`);
    expect(html).toContain(`name="expected" value="${latest!.value}"`);
    expect(html).toContain('action="/api/admin/prices/feedstock.crude.brent/set"');
  });

  it('the outbox lists the message and shows its text as text, never as HTML', async () => {
    const list = await render('/admin/outbox', OutboxPage, undefined, session(admin, 'admin'));
    expect(list.html).toContain(`Enquiry ${stamp}`);
    const { status, html } = await render('/admin/outbox/{file}', OutboxMessagePage, { file: outboxFile }, session(admin, 'admin'));
    expect(status).toBe(200);
    expect(html).toContain('Hello ₹ &lt;img src=x onerror=');
    expect(html).not.toContain(HOSTILE);
    expect(html).not.toContain('<script>steal()');
    const missing = await container.renderToResponse(OutboxMessagePage, {
      request: new Request('http://127.0.0.1:4321/admin/outbox/..%2Fpolyindex.db'),
      locals: { session: session(admin, 'admin') },
      params: { file: '../polyindex.db' },
      partial: false,
    });
    expect(missing.status).toBe(404);
  });
});
