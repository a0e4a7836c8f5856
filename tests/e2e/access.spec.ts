import { expect, test } from '@playwright/test';
import { signInByApi } from './helpers/auth.ts';
import { baseURL } from './env.ts';
import { screenOfPath } from '../../src/lib/plans.ts';

// The access table (docs/architecture.md, "Who sees what"), row by row, with the demo accounts, on the real server.
const pages = {
  public: ['/', '/pricing', '/terms', '/privacy', '/refunds', '/contact', '/news'],
  limited: ['/buy-sell', '/vip-delegations/2019', '/services/events'],
  gated: ['/crude/Naphtha', '/global-bazaar/USA', '/indian-bazaar/citywise', '/historical-data/PP', '/future-trends', '/graph/PVC', '/plant-news'],
};

type Outcome = 'ok' | 'register' | 'subscription' | 'home';
const table: Record<string, { limited: Outcome; gated: Outcome; subscription: Outcome; api: number }> = {
  anonymous: { limited: 'register', gated: 'register', subscription: 'register', api: 401 },
  'free@polyindex.test': { limited: 'ok', gated: 'subscription', subscription: 'ok', api: 403 },
  'trial@polyindex.test': { limited: 'ok', gated: 'ok', subscription: 'ok', api: 200 },
  'basic@polyindex.test': { limited: 'ok', gated: 'home', subscription: 'home', api: 403 },
  'standard@polyindex.test': { limited: 'ok', gated: 'home', subscription: 'home', api: 403 },
  'premium@polyindex.test': { limited: 'ok', gated: 'ok', subscription: 'home', api: 200 },
  'platinum@polyindex.test': { limited: 'ok', gated: 'ok', subscription: 'home', api: 200 },
  'admin@polyindex.test': { limited: 'ok', gated: 'ok', subscription: 'ok', api: 200 },
};

/** A paywall names the screen it closed (`?locked=`, issue 21); /subscription's own redirect names none. */
const locked = (path: string) => (screenOfPath(path) ? `?locked=${screenOfPath(path)!.id}` : '');
const where = (outcome: Outcome, path: string) =>
  ({ ok: `${baseURL}${path}`, register: `${baseURL}/register?next=${encodeURIComponent(path)}`, subscription: `${baseURL}/subscription${locked(path)}`, home: `${baseURL}/${locked(path)}` })[outcome];

for (const [who, expected] of Object.entries(table)) {
  test(`access table: ${who}`, async ({ context }) => {
    const request = context.request;
    if (who !== 'anonymous') await signInByApi(request, who);
    const check = async (path: string, outcome: Outcome) => {
      const response = await request.get(path, { maxRedirects: 0 });
      if (outcome === 'ok') expect(response.status(), `${who} ${path}`).toBe(200);
      else {
        expect(response.status(), `${who} ${path}`).toBe(302);
        expect(new URL(response.headers()['location']!, baseURL).href, `${who} ${path}`).toBe(where(outcome, path));
      }
    };
    for (const path of pages.public) await check(path, 'ok');
    for (const path of pages.limited) await check(path, expected.limited);
    for (const path of pages.gated) await check(path, expected.gated);
    await check('/subscription', expected.subscription);
    // The data API answers JSON statuses by the same policy, and never redirects.
    for (const path of ['/api/feedstock?name=Crude&country=brent', '/api/citywise', '/api/historicaldata?polymer=ppRaffia', '/api/internationaloffers?country=USA']) {
      const api = await request.get(path, { maxRedirects: 0 });
      expect(api.status(), `${who} ${path}`).toBe(expected.api);
      expect(api.headers()['content-type'], `${who} ${path}`).toContain('application/json');
    }
  });
}

test('a garbage session cookie is treated as anonymous, not an error', async ({ context }) => {
  await context.addCookies([{ name: '__session', value: 'not-a-real-cookie', url: baseURL }]);
  const page = await context.request.get('/crude/Naphtha', { maxRedirects: 0 });
  expect(page.status()).toBe(302);
  const session = await context.request.get('/api/session');
  expect(await session.json()).toMatchObject({ user: null, entitlement: 'anonymous' });
});

test('the session endpoint refuses missing, malformed and forged tokens with clear errors', async ({ request }) => {
  const post = (data: unknown, headers: Record<string, string> = { Origin: baseURL }) => request.post('/api/auth/session', { data: data as object, headers });
  for (const [body, field] of [[{}, 'idToken'], [{ idToken: 42 }, 'idToken'], [{ idToken: 'short' }, 'idToken'], [{ idToken: 'x'.repeat(9000) }, 'idToken']] as const) {
    const response = await post(body);
    expect(response.status(), JSON.stringify(body).slice(0, 40)).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: 'invalid_input', field });
  }
  const notJson = await request.post('/api/auth/session', { data: 'idToken=abc', headers: { Origin: baseURL, 'Content-Type': 'application/x-www-form-urlencoded' } });
  expect(notJson.status()).toBe(415);
  expect((await notJson.json()).error.code).toBe('unsupported_media_type');
  const forged = await post({ idToken: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.signature-that-is-not' });
  expect(forged.status()).toBe(401);
  expect((await forged.json()).error.code).toBe('invalid_token');
  const crossSite = await post({ idToken: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.abc' }, { Origin: 'https://evil.example' });
  expect(crossSite.status()).toBe(403);
});
