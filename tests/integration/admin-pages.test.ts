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
import type { Session } from '../../src/server/auth/session.ts';
import { store } from '../../src/server/runtime.ts';
import type { UserRecord } from '../../src/server/store/users.ts';

let container: AstroContainer;
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
  container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
  container.insertPageRoute('/404', NotFound);
});

const pages = [
  ['/admin', Dashboard, undefined],
  ['/admin/users', UsersPage, undefined],
  ['/admin/users/{uid}', UserPage, () => ({ uid: premium.uid })],
  ['/admin/audit', AuditPage, undefined],
] as const;

async function render(path: string, page: (typeof pages)[number][1], params: Record<string, string> | undefined, who: Session | null) {
  const response = await container.renderToResponse(page, {
    request: new Request(`http://127.0.0.1:4321${path.replace('{uid}', premium.uid)}`),
    locals: { session: who },
    partial: false,
    ...(params ? { params } : {}),
  });
  return { status: response.status, html: await response.text() };
}

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
});
