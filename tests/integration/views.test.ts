// Saved comparison views over HTTP (GET/POST /api/views, POST /api/views/{id}/remove), calling the
// routes with an APIContext-like object against the real SQLite store of the test DATA_DIR.
import type { APIContext, APIRoute } from 'astro';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Entitlement } from '../../src/lib/access/policy.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { MAX_SAVED_VIEWS } from '../../src/server/store/savedViews.ts';

let views: { GET: APIRoute; POST: APIRoute };
let remove: APIRoute;
const ORIGIN = 'http://127.0.0.1:4321';

beforeAll(async () => {
  views = await import('../../src/pages/api/views/index.ts');
  remove = (await import('../../src/pages/api/views/[id]/remove.ts')).POST;
});

const uniqueUid = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
const sessionOf = (uid: string, entitlement: Entitlement | 'anonymous'): Session | null =>
  entitlement === 'anonymous' ? null : { uid, email: null, record: null, entitlement, inTrial: null };

function context(path: string, session: Session | null, init: { method?: string; body?: unknown; origin?: string | null; params?: Record<string, string> } = {}) {
  const url = new URL(path, ORIGIN);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (init.origin !== null) headers['Origin'] = init.origin ?? ORIGIN;
  const request = new Request(url, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
  });
  return { request, url, params: init.params ?? {}, locals: { session } } as unknown as APIContext;
}

const save = (uid: string, body: unknown, entitlement: Entitlement | 'anonymous' = 'full', origin?: string | null) =>
  views.POST(context('/api/views', sessionOf(uid, entitlement), { method: 'POST', body, ...(origin !== undefined ? { origin } : {}) }));
const list = async (uid: string) => ((await (await views.GET(context('/api/views', sessionOf(uid, 'full')))).json()) as { data: { id: string; name: string; query: string; href: string }[] }).data;
const QUERY = 's=feedstock.naphtha.japan,historical.ppRaffia.mumbai,historical.ppRaffia.cif-ns&range=5Y&unit=inr_kg';

describe('access', () => {
  it.each([
    ['anonymous', 401], ['none', 403], ['limited', 403],
  ] as const)('%s: GET and POST answer %d', async (entitlement, status) => {
    const uid = uniqueUid('denied');
    expect((await views.GET(context('/api/views', sessionOf(uid, entitlement)))).status).toBe(status);
    expect((await save(uid, { name: 'x', query: QUERY }, entitlement)).status).toBe(status);
    expect((await remove(context('/api/views/x/remove', sessionOf(uid, entitlement), { method: 'POST', params: { id: 'x' } }))).status).toBe(status);
  });

  it('refuses a POST from another site or without an Origin', async () => {
    const uid = uniqueUid('origin');
    expect((await save(uid, { name: 'x', query: QUERY }, 'full', 'https://evil.example')).status).toBe(403);
    expect((await save(uid, { name: 'x', query: QUERY }, 'full', null)).status).toBe(403);
    expect(await list(uid)).toEqual([]);
  });
});

describe('saving, listing and removing', () => {
  it('saves (201), replaces by name (200), lists with the link, removes', async () => {
    const uid = uniqueUid('saver');
    const created = await save(uid, { name: 'Naphtha vs PP, 5 years', query: `?${QUERY}` });
    expect(created.status).toBe(201);
    const { view } = (await created.json()) as { view: { id: string; query: string; href: string } };
    expect(view.query).toBe(QUERY);
    expect(view.href).toBe(`/compare?${QUERY}`);
    // The query is stored canonically: the same state written another way is the same text.
    const replaced = await save(uid, { name: 'naphtha vs pp, 5 YEARS', query: 'unit=usd_t&s=feedstock.naphtha.japan&ma=0' });
    expect(replaced.status).toBe(200);
    expect(await list(uid)).toMatchObject([{ id: view.id, name: 'naphtha vs pp, 5 YEARS', query: 's=feedstock.naphtha.japan&unit=usd_t' }]);

    // Another user cannot remove it, nor see it.
    const other = uniqueUid('other');
    expect(await list(other)).toEqual([]);
    const theirs = await remove(context(`/api/views/${view.id}/remove`, sessionOf(other, 'full'), { method: 'POST', params: { id: view.id } }));
    expect(theirs.status).toBe(404);
    const mine = await remove(context(`/api/views/${view.id}/remove`, sessionOf(uid, 'admin'), { method: 'POST', params: { id: view.id } }));
    expect(mine.status).toBe(200);
    expect(await list(uid)).toEqual([]);
  });

  it.each([
    [{ query: QUERY }, 'name'],
    [{ name: '   ', query: QUERY }, 'name'],
    [{ name: 'x'.repeat(81), query: QUERY }, 'name'],
    [{ name: '<script>', query: QUERY }, 'name'],
    [{ name: 42, query: QUERY }, 'name'],
    [{ name: 'ok' }, 'query'],
    [{ name: 'ok', query: '' }, 'query'],
    [{ name: 'ok', query: 'range=5Y' }, 'query'],
    [{ name: 'ok', query: 's=nope.series' }, 'query'],
    [{ name: 'ok', query: 's=fx.usdinr&unit=kg' }, 'query'],
    [{ name: 'ok', query: 's=fx.usdinr&ma=07x' }, 'query'],
    [{ name: 'ok', query: 's=fx.usdinr&range=custom&from=2025-01-02&to=2024-01-01' }, 'query'],
    [{ name: 'ok', query: `s=fx.usdinr&x=${'a'.repeat(2000)}` }, 'query'],
  ])('400 for %j (field %s)', async (body, field) => {
    const response = await save(uniqueUid('bad'), body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { field: string } }).error.field).toBe(field);
  });

  it('400 for a body that is not JSON', async () => {
    const response = await save(uniqueUid('bad'), '{ "name": ');
    expect(response.status).toBe(400);
  });

  it(`409 past ${MAX_SAVED_VIEWS} views`, async () => {
    const uid = uniqueUid('hoarder');
    for (let i = 0; i < MAX_SAVED_VIEWS; i++) expect((await save(uid, { name: `view ${i}`, query: QUERY })).status).toBe(201);
    const refused = await save(uid, { name: 'one more', query: QUERY });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string; field: string } }).error).toMatchObject({ code: 'too_many_views', field: 'name' });
  });
});
