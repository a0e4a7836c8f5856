/**
 * The desk's forecast endpoints (/api/admin/forecasts…) called through their route files against
 * the site's SQLite store: who may use them, a publication (the record, its audit entry, the base
 * and flat band the server supplies), a correction that supersedes (both stay), every bad input a
 * 400 naming the field and every refusal of the store's state a 409, with nothing written.
 */
import type { APIContext, APIRoute } from 'astro';
import { beforeAll, describe, expect, it } from 'vitest';
import { flatEdges, horizonEnd } from '../../src/lib/forecasts/model.ts';
import { GET as oneRoute } from '../../src/pages/api/admin/forecasts/[id].ts';
import { GET as listRoute, POST as publishRoute } from '../../src/pages/api/admin/forecasts/index.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { store } from '../../src/server/runtime.ts';
import { forecastTarget } from '../../src/server/store/forecasts.ts';
import type { Store } from '../../src/server/store/index.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import type { PricePoint } from '../../src/lib/priceTypes.ts';
import { sessionOf } from './helpers.ts';

const ORIGIN = 'http://127.0.0.1:4321';
const SERIES = 'fx.usdinr';
let db: Store;
let seq = 0;
const stamp = Date.now().toString(36);
let editor: UserRecord;
let premium: UserRecord;
let base: PricePoint;

async function user(prefix: string, extra: Partial<UserRecord> = {}): Promise<UserRecord> {
  const uid = `${prefix}-${stamp}-${++seq}`;
  const record: UserRecord = { uid, displayName: `Desk ${uid}`, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, plan: null, createdAt: '01-01-2026', ...extra };
  expect(await db.createUser(record)).toBe(true);
  return record;
}

beforeAll(async () => {
  db = await store();
  editor = await user('editor', { role: 'editor' });
  premium = await user('premium', { subscribed: true, plan: 'Premium', expiresAt: '2099-01-01T00:00:00.000Z' });
  base = (await db.latestPoints(SERIES, 1))[0]!;
}, 120_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
type Answer = { status: number; json: any };

async function call(route: APIRoute, options: { method?: string; body?: unknown; raw?: string; contentType?: string; session?: Session | null; params?: Record<string, string>; path?: string; origin?: string } = {}): Promise<Answer> {
  const url = new URL(options.path ?? '/api/admin/forecasts', ORIGIN);
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = { origin: options.origin ?? ORIGIN };
  if (method !== 'GET') headers['content-type'] = options.contentType ?? 'application/json';
  const body = method === 'GET' ? undefined : (options.raw ?? JSON.stringify(options.body));
  const request = new Request(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const context = { request, url, params: options.params ?? {}, site: new URL(ORIGIN), locals: { session: options.session === undefined ? sessionOf(editor, 'none') : options.session } } as unknown as APIContext;
  const response = await route(context);
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

/** An up call a week out: its high well above any flat band, its low at the base. */
const upCall = (over: Record<string, unknown> = {}) => ({ seriesId: SERIES, horizon: '1w', direction: 'up', low: base.value, high: Math.round(base.value * 1.2 * 100) / 100, rationale: 'The rupee **weakens** on outflows. <script>alert(1)</script>', ...over });

async function expectNothingWritten(work: () => Promise<Answer>): Promise<Answer> {
  const count = async () => ({ forecasts: (await db.listForecasts(SERIES)).length, audit: (await db.listAudit()).total });
  const before = await count();
  const answer = await work();
  expect(await count()).toEqual(before);
  return answer;
}

describe('who may publish', () => {
  it('refuses anonymous (401), a member of any plan (403) and another site (403), writing nothing', async () => {
    expect((await expectNothingWritten(() => call(publishRoute, { body: upCall(), session: null }))).status).toBe(401);
    expect((await expectNothingWritten(() => call(publishRoute, { body: upCall(), session: sessionOf(premium, 'full') }))).status).toBe(403);
    expect((await expectNothingWritten(() => call(publishRoute, { body: upCall(), origin: 'https://elsewhere.example' }))).status).toBe(403);
    expect((await call(listRoute, { method: 'GET', path: `/api/admin/forecasts?series=${SERIES}`, session: sessionOf(premium, 'full') })).status).toBe(403);
  });
});

describe('publishing', () => {
  it('writes the call as sent, on the last price, with its flat band and byline, audited; the list and the one read show it', async () => {
    const answer = await call(publishRoute, { body: upCall() });
    expect(answer.status, JSON.stringify(answer.json)).toBe(201);
    const f = answer.json.forecast;
    expect(f).toMatchObject({ seriesId: SERIES, horizon: '1w', direction: 'up', low: base.value, baseDate: base.date, baseValue: base.value, endDate: horizonEnd(base.date, '1w'), supersedes: null, by: { kind: 'desk', uid: editor.uid, name: editor.displayName } });
    expect(f.id).toMatch(new RegExp(`^desk\\.${SERIES.replace('.', '\\.')}\\.1w\\.${base.date}\\.[0-9a-f]{8}$`));
    expect(f.flatBandPct).toBeGreaterThan(0);
    // The markdown is kept as sent; pages render it through the posts' sanitiser.
    expect(f.rationale).toContain('<script>');
    expect(await db.getForecast(f.id)).toEqual(f);
    const audit = await db.listAudit({ target: forecastTarget(f.id) });
    expect(audit.entries.map((e) => [e.id, e.action, e.actor.uid, e.after])).toEqual([[answer.json.auditId, 'forecast.publish', editor.uid, f]]);

    const list = await call(listRoute, { method: 'GET', path: `/api/admin/forecasts?series=${SERIES}` });
    expect(list.status).toBe(200);
    expect(list.json.forecasts.find((x: { id: string }) => x.id === f.id)).toEqual({ ...f, score: null });
    const one = await call(oneRoute, { method: 'GET', params: { id: f.id } });
    expect(one.json).toEqual({ forecast: f, score: null, correctedBy: [] });
    expect((await call(oneRoute, { method: 'GET', params: { id: 'no-such' } })).status).toBe(404);
    expect((await call(listRoute, { method: 'GET', path: '/api/admin/forecasts?series=nope' })).json.error.field).toBe('series');
  });

  it('a correction is a new forecast naming the one it corrects: both stay, the first unchanged', async () => {
    const first = (await call(publishRoute, { body: upCall() })).json.forecast;
    const second = await call(publishRoute, { body: upCall({ supersedes: first.id, high: Math.round(base.value * 1.1 * 100) / 100, rationale: 'Correction: outflows slowed.' }) });
    expect(second.status, JSON.stringify(second.json)).toBe(201);
    expect(second.json.forecast.supersedes).toBe(first.id);
    expect(await db.getForecast(first.id)).toEqual(first);
    expect((await call(oneRoute, { method: 'GET', params: { id: first.id } })).json.correctedBy).toEqual([second.json.forecast.id]);
  });
});

describe('refusals, with nothing written', () => {
  const edges = () => flatEdges(base.value, 5);
  it.each([
    ['no series', { seriesId: undefined }, 'seriesId'],
    ['an unknown series', { seriesId: 'fx.nope' }, 'seriesId'],
    ['a 2-week horizon', { horizon: '2w' }, 'horizon'],
    ['a sideways direction', { direction: 'sideways' }, 'direction'],
    ['a low that is no number', { low: 'eighty' }, 'low'],
    ['a negative high', { high: -1 }, 'high'],
    ['a high below the low', { low: 90, high: 80 }, 'high'],
    ['no rationale', { rationale: '   ' }, 'rationale'],
    ['a rationale of 4,001 characters', { rationale: 'x'.repeat(4_001) }, 'rationale'],
    ['a supersedes that is no id', { supersedes: 42 }, 'supersedes'],
    ['an unknown field', { confidence: 0.9 }, undefined],
  ] as const)('refuses %s (400)', async (_name, over, field) => {
    const answer = await expectNothingWritten(() => call(publishRoute, { body: upCall(over as Record<string, unknown>) }));
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('invalid_input');
    if (field) expect(answer.json.error.field).toBe(field);
    expect(answer.json.error.message.length).toBeGreaterThan(5);
  });

  it('refuses a range further than twice the last price, and an up call whose high stays in the flat band (400)', async () => {
    const far = await expectNothingWritten(() => call(publishRoute, { body: upCall({ high: base.value * 3 }) }));
    expect(far).toMatchObject({ status: 400, json: { error: { code: 'invalid_input', field: 'high' } } });
    const flat = await expectNothingWritten(() => call(publishRoute, { body: upCall({ low: base.value * 0.999, high: base.value * 1.0001 }) }));
    expect(flat).toMatchObject({ status: 400, json: { error: { code: 'invalid_input', field: 'direction' } } });
    expect(flat.json.error.message).toMatch(/flat is/);
    expect(edges().lower).toBeLessThan(base.value);
  });

  it('refuses a correction of nothing, of the baseline, or of another horizon (409)', async () => {
    const gone = await expectNothingWritten(() => call(publishRoute, { body: upCall({ supersedes: 'no-such-forecast' }) }));
    expect(gone).toMatchObject({ status: 409, json: { error: { code: 'not_correctable', field: 'supersedes' } } });
    const baseline = (await db.listForecasts(SERIES)).find((f) => f.by.kind === 'baseline');
    if (baseline) {
      const refused = await expectNothingWritten(() => call(publishRoute, { body: upCall({ supersedes: baseline.id }) }));
      expect(refused).toMatchObject({ status: 409, json: { error: { field: 'supersedes' } } });
    }
    const first = (await call(publishRoute, { body: upCall() })).json.forecast;
    const other = await expectNothingWritten(() => call(publishRoute, { body: upCall({ supersedes: first.id, horizon: '1m' }) }));
    expect(other).toMatchObject({ status: 409, json: { error: { field: 'supersedes' } } });
  });

  it.each([
    ['not JSON', { raw: '{nope' }, 400, 'invalid_body'],
    ['an array', { body: [1] }, 400, 'invalid_input'],
    ['text/plain', { raw: '{}', contentType: 'text/plain' }, 415, 'unsupported_media_type'],
    ['over 16 KiB', { raw: JSON.stringify({ rationale: 'x'.repeat(20 * 1024) }) }, 413, 'too_large'],
  ] as const)('answers %s with %i', async (_name, options, status, code) => {
    const answer = await expectNothingWritten(() => call(publishRoute, options));
    expect(answer.status).toBe(status);
    expect(answer.json.error.code).toBe(code);
  });
});
