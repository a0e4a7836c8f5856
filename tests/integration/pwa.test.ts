/**
 * The server's side of the installable app, against the real Auth emulator: the viewer header the
 * service worker keys its private copies by, and the logout answer that clears the HTTP cache.
 */
import { describe, expect, it } from 'vitest';
import { jwtExpiry, parseViewer } from '../../src/lib/pwa/viewer.ts';
import { onRequest } from '../../src/middleware.ts';
import { POST as logout } from '../../src/pages/api/auth/logout.ts';
import { POST as signIn } from '../../src/pages/api/auth/session.ts';
import { SESSION_COOKIE, SESSION_MS } from '../../src/server/auth/sessions.ts';
import { viewerKey } from '../../src/server/pwa/viewer.ts';
import { apiContext, emulatorSignUp, uniqueEmail } from './helpers.ts';

const ORIGIN = { Origin: 'http://127.0.0.1:4321', 'Content-Type': 'application/json' };

async function signedIn() {
  const account = await emulatorSignUp(uniqueEmail('viewer'));
  const { context, set } = apiContext('/api/auth/session', { method: 'POST', headers: ORIGIN, body: JSON.stringify({ idToken: account.idToken }) });
  expect((await signIn(context)).status).toBe(200);
  return { uid: account.uid, cookie: set[SESSION_COOKIE]!.value };
}

const run = async (path: string, routePattern: string, cookie?: string, page: () => Response = () => new Response('page')) => {
  const { context } = apiContext(path, { routePattern, ...(cookie ? { cookies: { [SESSION_COOKIE]: cookie } } : {}) });
  return (await onRequest(context, async () => page())) as Response;
};

describe('X-PolyIndex-Viewer', () => {
  it('names a signed-in viewer by an opaque key and the session expiry on a gated page and a data answer', async () => {
    const { uid, cookie } = await signedIn();
    const before = Date.now();
    for (const [path, pattern] of [['/crude/Naphtha', '/crude/[slug]'], ['/api/feedstock?name=Naphtha', '/api/feedstock']] as const) {
      const response = await run(path, pattern, cookie);
      expect(response.status).toBe(200);
      const viewer = parseViewer(response.headers.get('X-PolyIndex-Viewer'));
      expect(viewer).toMatchObject({ signedIn: true, key: viewerKey(uid) });
      expect(viewer?.signedIn && viewer.key).not.toContain(uid);
      // The session cookie lasts five days from the sign-in just made (to the second).
      const expiresAt = viewer?.signedIn ? viewer.expiresAt : 0;
      expect(expiresAt).toBeGreaterThan(before + SESSION_MS - 60_000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + SESSION_MS);
      // Taken from the verified session: the cookie's own expiry.
      expect(expiresAt).toBe(jwtExpiry(cookie));
    }
  });

  it('gives two users two keys, and one user the same key on every sign-in', async () => {
    expect(viewerKey('user-a')).not.toBe(viewerKey('user-b'));
    expect(viewerKey('user-a')).toBe(viewerKey('user-a'));
    expect(viewerKey('user-a')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('names an anonymous visitor on a redirect, a 401 and an on-demand page', async () => {
    const page = await run('/crude/Naphtha', '/crude/[slug]');
    expect(page.status).toBe(302);
    expect(page.headers.get('X-PolyIndex-Viewer')).toBe('anonymous');
    const api = await run('/api/feedstock', '/api/feedstock', 'garbage');
    expect(api.status).toBe(401);
    expect(api.headers.get('X-PolyIndex-Viewer')).toBe('anonymous');
    expect((await run('/api/session', '/api/session')).headers.get('X-PolyIndex-Viewer')).toBe('anonymous');
  });

  it('names nobody on an answer a shared cache may keep, or on a build-time page', async () => {
    const { cookie } = await signedIn();
    for (const cacheControl of ['public, max-age=300', 'public, s-maxage=60, stale-while-revalidate', 's-maxage=60']) {
      const response = await run('/news/some-post', '/news/[slug]', cookie, () => new Response('post', { headers: { 'Cache-Control': cacheControl } }));
      expect(response.headers.get('X-PolyIndex-Viewer'), cacheControl).toBeNull();
    }
    const { context } = apiContext('/terms', { routePattern: '/terms' });
    (context as { isPrerendered: boolean }).isPrerendered = true;
    expect(((await onRequest(context, async () => new Response('terms'))) as Response).headers.get('X-PolyIndex-Viewer')).toBeNull();
  });
});

describe('POST /api/auth/logout', () => {
  it('tells the browser to drop its HTTP cache of the site', async () => {
    const { cookie } = await signedIn();
    const { context } = apiContext('/api/auth/logout', { method: 'POST', headers: ORIGIN, cookies: { [SESSION_COOKIE]: cookie } });
    const response = await logout(context);
    expect(response.status).toBe(200);
    expect(response.headers.get('Clear-Site-Data')).toBe('"cache"');
  });
});
