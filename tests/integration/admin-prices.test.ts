/**
 * The admin price endpoints (point set / delete, CSV import) against the real SQLite store of the
 * test DATA_DIR: refused to non-admins (directly and through the real middleware), every bad
 * input writes nothing, a good write lands with its audit entry, concurrent edits of one point
 * cannot both win, and the import is all or nothing, idempotent and bounded.
 */
import type { APIContext, APIRoute } from 'astro';
import { beforeAll, describe, expect, it } from 'vitest';
import { onRequest } from '../../src/middleware.ts';
import { POST as deleteRoute } from '../../src/pages/api/admin/prices/[series]/delete.ts';
import { POST as setRoute } from '../../src/pages/api/admin/prices/[series]/set.ts';
import { POST as importRoute } from '../../src/pages/api/admin/prices/import.ts';
import { POST as signInEndpoint } from '../../src/pages/api/auth/session.ts';
import { CSV_HEADER, toPriceCsv } from '../../src/lib/csv.ts';
import { MAX_IMPORT_BYTES } from '../../src/lib/admin/priceImport.ts';
import { addDays, isoDateOf } from '../../src/lib/dates.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { SESSION_COOKIE } from '../../src/server/auth/sessions.ts';
import { store } from '../../src/server/runtime.ts';
import type { Store } from '../../src/server/store/index.ts';
import { IMPORT_TARGET, seriesTarget } from '../../src/server/store/priceAdmin.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { apiContext, emulatorSignUp, uniqueEmail, sessionOf } from './helpers.ts';

const ORIGIN = 'http://127.0.0.1:4321';
const DAY = 86_400_000;
const FX = 'fx.usdinr';
const BRENT = 'feedstock.crude.brent';
let db: Store;
let seq = 0;
let admin: UserRecord;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
type Answer = { status: number; json: any };

async function createUser(prefix: string, extra: Partial<UserRecord> = {}): Promise<UserRecord> {
  const uid = `${prefix}-${Date.now().toString(36)}-${++seq}`;
  const record: UserRecord = { uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, plan: null, createdAt: '01-01-2026', ...extra };
  expect(await db.createUser(record)).toBe(true);
  return record;
}


beforeAll(async () => {
  db = await store();
  admin = await createUser('price-admin', { role: 'admin' });
});

/** A distinct day per test (far before the demo data), so reruns on one DATA_DIR never collide. */
let dayCounter = 0;
const runOffset = Math.floor(Date.now() / 1000) % 20_000;
const uniqueDay = (): string => new Date(Date.UTC(1900, 0, 1) + (runOffset + dayCounter++) * DAY).toISOString().slice(0, 10);
/** A distinct in-range USD/INR value. */
const uniqueFx = (): number => Math.round((50 + ((Date.now() + ++seq * 7919) % 100_000) / 1000) * 1000) / 1000;

interface CallOptions {
  readonly session?: Session | null;
  readonly origin?: string | null;
  readonly contentType?: string;
  readonly query?: string;
}

async function call(route: APIRoute, path: string, params: Record<string, string>, body: unknown, options: CallOptions = {}): Promise<Answer> {
  const url = new URL(`${path}${options.query ?? ''}`, ORIGIN);
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' };
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  if (origin !== null) headers['origin'] = origin;
  const request = new Request(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const context = { request, url, params, locals: { session: options.session === undefined ? sessionOf(admin) : options.session } } as unknown as APIContext;
  const response = await route(context);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  return { status: response.status, json: await response.json() };
}

const setPoint = (series: string, body: unknown, options?: CallOptions) => call(setRoute, `/api/admin/prices/${series}/set`, { series }, body, options);
const deletePoint = (series: string, body: unknown, options?: CallOptions) => call(deleteRoute, `/api/admin/prices/${series}/delete`, { series }, body, options);
const importCsv = (text: string, options?: CallOptions) => call(importRoute, '/api/admin/prices/import', {}, text, { contentType: 'text/csv', ...options });

const valueOn = async (series: string, date: string) => (await db.points(series, { from: date, to: date }))[0]?.value ?? null;

/** Runs `work` and asserts that no point of `series` on `dates` and no audit entry changed. */
async function expectNothingWritten(series: string, dates: readonly string[], work: () => Promise<Answer>): Promise<Answer> {
  const before = await Promise.all(dates.map((d) => valueOn(series, d)));
  const total = (await db.listAudit()).total;
  const answer = await work();
  expect(await Promise.all(dates.map((d) => valueOn(series, d)))).toEqual(before);
  expect((await db.listAudit()).total).toBe(total);
  return answer;
}

describe('admin price endpoints refuse everyone but administrators', () => {
  it('set, delete and import: anonymous 401; premium, basic, free and a forged admin 403; nothing written', async () => {
    const date = uniqueDay();
    const future = new Date(Date.now() + 100 * DAY).toISOString();
    const premium = await createUser('p-premium', { subscribed: true, plan: 'Premium', expiresAt: future });
    const basic = await createUser('p-basic', { subscribed: true, plan: 'Basic', expiresAt: future });
    const free = await createUser('p-free');
    const csv = `${CSV_HEADER}\n${FX},${date},${uniqueFx()}\n`;
    const writes = [
      (o: CallOptions) => setPoint(FX, { date, value: 83 }, o),
      (o: CallOptions) => deletePoint(FX, { date, expected: 83 }, o),
      (o: CallOptions) => importCsv(csv, o),
    ];
    for (const write of writes) {
      expect((await expectNothingWritten(FX, [date], () => write({ session: null }))).status).toBe(401);
      for (const [user, entitlement] of [[premium, 'full'], [basic, 'limited'], [free, 'none']] as const) {
        const answer = await expectNothingWritten(FX, [date], () => write({ session: sessionOf(user, entitlement) }));
        expect(answer).toMatchObject({ status: 403, json: { error: { code: 'forbidden' } } });
      }
      expect((await expectNothingWritten(FX, [date], () => write({ session: { ...sessionOf(free), entitlement: 'admin' } }))).status).toBe(403);
      expect((await expectNothingWritten(FX, [date], () => write({ origin: 'https://evil.example' }))).json.error.code).toBe('cross_origin');
    }
  });

  it('through the real middleware with emulator cookies: anonymous 401, premium 403, admin 200', async () => {
    async function signedIn(state: Partial<UserRecord>): Promise<string> {
      const { idToken, uid } = await emulatorSignUp(uniqueEmail('pmw'));
      const { context, set } = apiContext('/api/auth/session', { method: 'POST', headers: { Origin: ORIGIN, 'Content-Type': 'application/json' }, body: JSON.stringify({ idToken }) });
      expect((await signInEndpoint(context)).status).toBe(200);
      await db.updateUsersBy('uid', uid, state);
      return set[SESSION_COOKIE]!.value;
    }
    const date = uniqueDay();
    const through = async (cookie: string | undefined) => {
      const { context } = apiContext(`/api/admin/prices/${FX}/set`, {
        method: 'POST',
        headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
        body: JSON.stringify({ date, value: 84.25 }),
        params: { series: FX },
        routePattern: '/api/admin/prices/[series]/set',
        ...(cookie ? { cookies: { [SESSION_COOKIE]: cookie } } : {}),
      });
      return (await onRequest(context, async () => setRoute(context))) as Response;
    };
    expect((await through(undefined)).status).toBe(401);
    expect((await through(await signedIn({ subscribed: true, plan: 'Premium', expiresAt: new Date(Date.now() + 100 * DAY).toISOString() }))).status).toBe(403);
    expect(await valueOn(FX, date)).toBeNull();
    expect((await through(await signedIn({ role: 'admin' }))).status).toBe(200);
    expect(await valueOn(FX, date)).toBe(84.25);
  });
});

describe('one point: add, change, delete, each with its audit entry', () => {
  it('adds, changes and deletes; the audit log says who and old → new', async () => {
    const date = uniqueDay();
    const added = await setPoint(BRENT, { date, value: '88.88' });
    expect(added).toMatchObject({ status: 200, json: { changed: true, before: null, after: { date, value: 88.88 } } });
    expect(await valueOn(BRENT, date)).toBe(88.88);
    const changed = await setPoint(BRENT, { date, value: 89.5, expected: '88.88' });
    expect(changed).toMatchObject({ status: 200, json: { changed: true, before: { value: 88.88 }, after: { value: 89.5 } } });
    const same = await expectNothingWritten(BRENT, [date], () => setPoint(BRENT, { date, value: 89.5, expected: 89.5 }));
    expect(same.json).toEqual({ changed: false });
    const deleted = await deletePoint(BRENT, { date, expected: 89.5 });
    expect(deleted).toMatchObject({ status: 200, json: { changed: true, before: { value: 89.5 }, after: null } });
    expect(await valueOn(BRENT, date)).toBeNull();
    const entries = (await db.listAudit({ target: seriesTarget(BRENT), pageSize: 3 })).entries;
    expect(entries.map((e) => [e.action, e.before, e.after, e.actor.uid])).toEqual([
      ['price.delete', { date, value: 89.5 }, null, admin.uid],
      ['price.change', { date, value: 88.88 }, { date, value: 89.5 }, admin.uid],
      ['price.add', null, { date, value: 88.88 }, admin.uid],
    ]);
  });

  it.each([
    ['a date that is not real', { date: '2025-02-30', value: 80 }, 'date'],
    ['a date in another form', { date: '30/01/2025', value: 80 }, 'date'],
    ['no date', { value: 80 }, 'date'],
    ['a value that is not a number', { date: '2025-01-02', value: 'abc' }, 'value'],
    ['a value with a thousands separator', { date: '2025-01-02', value: '1,000' }, 'value'],
    ['a negative value', { date: '2025-01-02', value: -80 }, 'value'],
    ['zero', { date: '2025-01-02', value: 0 }, 'value'],
    ['a value above the unit’s range', { date: '2025-01-02', value: 880 }, 'value'],
    ['a value below the unit’s range', { date: '2025-01-02', value: 2 }, 'value'],
    ['an expected value that is not a number', { date: '2025-01-02', value: 80, expected: 'x' }, 'expected'],
  ])('refuses %s (400 naming the field), writing nothing', async (_name, body, field) => {
    const answer = await expectNothingWritten(BRENT, ['2025-01-02'], () => setPoint(BRENT, body));
    expect(answer).toMatchObject({ status: 400, json: { error: { field } } });
  });

  it.each([addDays(isoDateOf(new Date()), 1), '2999-12-31'])('refuses a point dated after today (IST), %s: 400 naming the date; the latest point stays', async (date) => {
    const latest = await db.latestPoints(BRENT, 1);
    const answer = await expectNothingWritten(BRENT, [date], () => setPoint(BRENT, { date, value: 80 }));
    expect(answer).toMatchObject({ status: 400, json: { error: { code: 'invalid_input', field: 'date', message: expect.stringMatching(new RegExp(`${date} is after today`)) } } });
    expect(await db.latestPoints(BRENT, 1)).toEqual(latest);
  });

  it('refuses an unknown series (404) and a body that is not JSON (400)', async () => {
    expect((await setPoint('feedstock.crude.wti', { date: '2025-01-02', value: 80 })).json.error.code).toBe('unknown_series');
    expect((await expectNothingWritten(BRENT, ['2025-01-02'], () => setPoint(BRENT, '{oops'))).status).toBe(400);
  });

  it('two concurrent edits of one point: one wins, the other gets 409 with the current value', async () => {
    const date = uniqueDay();
    expect((await setPoint(FX, { date, value: 83 })).status).toBe(200);
    const [a, b] = await Promise.all([setPoint(FX, { date, value: 84, expected: 83 }), setPoint(FX, { date, value: 85, expected: 83 })]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const winner = a.status === 200 ? 84 : 85;
    const loser = a.status === 409 ? a : b;
    expect(loser.json).toMatchObject({ error: { code: 'conflict' }, current: winner });
    expect(await valueOn(FX, date)).toBe(winner);
    // Adding a date that someone else added meanwhile is a conflict too, and so is deleting a stale value.
    expect((await setPoint(FX, { date, value: 86 })).status).toBe(409);
    expect((await deletePoint(FX, { date, expected: 83 })).status).toBe(409);
    expect(await valueOn(FX, date)).toBe(winner);
  });
});

describe('CSV import', () => {
  it('imports an exported file with rows added; a dry run writes nothing; re-import changes nothing', async () => {
    const existing = await db.latestPoints(FX, 3);
    expect(existing.length).toBe(3);
    const exported = toPriceCsv({ series: FX, points: existing, decimals: 4 });
    const d1 = uniqueDay();
    const d2 = uniqueDay();
    const v1 = uniqueFx();
    const v2 = uniqueFx();
    const brentDay = uniqueDay();
    const file = `${exported}${FX},${d1},${v1}\n\n${FX},${d2},${v2}\r\n${BRENT},${brentDay},77.25\n`;

    const preview = await expectNothingWritten(FX, [d1, d2], () => importCsv(file, { query: '?dryRun=1' }));
    expect(preview).toMatchObject({ status: 200, json: { dryRun: true, rows: 6, changed: 3, series: 2, bySeries: { [FX]: { rows: 5, changed: 2 }, [BRENT]: { rows: 1, changed: 1 } } } });

    const auditBefore = (await db.listAudit({ target: IMPORT_TARGET })).total;
    const done = await importCsv(file);
    expect(done).toMatchObject({ status: 200, json: { dryRun: false, rows: 6, changed: 3, series: 2 } });
    expect([await valueOn(FX, d1), await valueOn(FX, d2), await valueOn(BRENT, brentDay)]).toEqual([v1, v2, 77.25]);
    const entries = (await db.listAudit({ target: IMPORT_TARGET })).entries;
    expect(entries.length).toBe(Math.min(auditBefore + 1, 50));
    expect(entries[0]).toMatchObject({ action: 'price.import', actor: { uid: admin.uid }, after: { rows: 6, changed: 3 } });

    const again = await expectNothingWritten(FX, [d1, d2], () => importCsv(file));
    expect(again).toMatchObject({ status: 200, json: { rows: 6, changed: 0, auditId: null } });
  });

  it.each([
    ['an unknown series', (d: string) => `${CSV_HEADER}\n${FX},${d},83\nfeedstock.crude.wti,${d},80\n`, 3, 'series'],
    ['a date that is not real', (d: string) => `${CSV_HEADER}\n${FX},${d},83\n${FX},2025-02-29,83\n`, 3, 'date'],
    ['a date in another form', (d: string) => `${CSV_HEADER}\n${FX},${d},83\n${FX},02/01/2025,83\n`, 3, 'date'],
    ['a value that is not a number', (d: string) => `${CSV_HEADER}\n${FX},${d},83\n${FX},2025-01-03,abc\n`, 3, 'value'],
    ['a value out of the unit’s range', (d: string) => `${CSV_HEADER}\n${FX},${d},83\n${BRENT},2025-01-03,880\n`, 3, 'value'],
    ['a negative value', (d: string) => `${CSV_HEADER}\n${FX},${d},83\n${FX},2025-01-03,-83\n`, 3, 'value'],
    ['a wrong header', (d: string) => `series,date,price\n${FX},${d},83\n`, 1, 'header'],
    ['no header', (d: string) => `${FX},${d},83\n`, 1, 'header'],
    ['an extra column', (d: string) => `${CSV_HEADER}\n${FX},${d},83\n${FX},2025-01-03,83,x\n`, 3, 'columns'],
    ['a missing column', (d: string) => `${CSV_HEADER}\n${FX},${d},83\n\n${FX},2025-01-03\n`, 4, 'columns'],
    ['one date twice', (d: string) => `${CSV_HEADER}\n${FX},${d},83\n${FX},${d},84\n`, 3, 'date'],
  ])('refuses a file with %s: 400 naming the line and field; nothing of the file written', async (_name, make, line, field) => {
    const d = uniqueDay();
    const answer = await expectNothingWritten(FX, [d], () => importCsv(make(d)));
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: 'invalid_csv', line, field });
    expect(answer.json.error.message).toContain(`Line ${line}`);
    expect(answer.json.errors[0]).toMatchObject({ line, field });
  });

  it('refuses a file with a row dated after today (IST): 400 naming line and field; none of its rows written', async () => {
    const good = uniqueDay();
    const file = `${CSV_HEADER}\n${FX},${good},${uniqueFx()}\n${FX},2116-03-01,${uniqueFx()}\n`;
    const answer = await expectNothingWritten(FX, [good, '2116-03-01'], () => importCsv(file));
    expect(answer).toMatchObject({ status: 400, json: { error: { code: 'invalid_csv', field: 'date', line: 3 }, errors: [{ line: 3, field: 'date', message: expect.stringMatching(/after today/) }] } });
  });

  it('refuses another content type (415) and a file above 5 MiB (413, clear message), writing nothing', async () => {
    const d = uniqueDay();
    expect((await expectNothingWritten(FX, [d], () => importCsv(`${CSV_HEADER}\n${FX},${d},83\n`, { contentType: 'application/json' }))).status).toBe(415);
    const row = `${FX},${d},83\n`;
    const huge = `${CSV_HEADER}\n${row}${'\n'.repeat(MAX_IMPORT_BYTES)}`;
    const answer = await expectNothingWritten(FX, [d], () => importCsv(huge));
    expect(answer).toMatchObject({ status: 413, json: { error: { code: 'too_large' } } });
    expect(answer.json.error.message).toMatch(/at most 5 MiB/);
  });

  it('refuses a file of more than 200,000 rows (413)', async () => {
    const start = Date.UTC(1400, 0, 1);
    const lines = [CSV_HEADER];
    for (let i = 0; i <= 200_000; i++) lines.push(`${FX},${new Date(start + i * DAY).toISOString().slice(0, 10)},83`);
    const text = `${lines.join('\n')}\n`;
    expect(Buffer.byteLength(text)).toBeLessThan(MAX_IMPORT_BYTES);
    const answer = await importCsv(text);
    expect(answer).toMatchObject({ status: 413, json: { error: { code: 'too_large' } } });
    expect(answer.json.error.message).toMatch(/too many rows/);
  });
});

describe('ranges (issue 20): the desk writes a low and a high where the series is range-quoted', () => {
  const CIF = 'historical.ppRaffia.cif-ns';
  const RANGE_HEADER = 'series,date,value,low,high';
  const pointOn = async (series: string, date: string) => (await db.points(series, { from: date, to: date }))[0] ?? null;

  it('JSON: a range is stored with its mid, audited with low and high; the same range again is unchanged', async () => {
    const date = uniqueDay();
    const written = await setPoint(CIF, { date, low: 1005, high: 1025 });
    expect(written.status).toBe(200);
    expect(await pointOn(CIF, date)).toEqual({ date, value: 1015, low: 1005, high: 1025 });
    const entry = (await db.listAudit({ target: seriesTarget(CIF), pageSize: 1 })).entries[0]!;
    expect(entry).toMatchObject({ action: 'price.add', after: { date, value: 1015, low: 1005, high: 1025 } });
    expect((await setPoint(CIF, { date, low: 1005, high: 1025, value: 1015, expected: 1015 })).status).toBe(200);
    expect((await db.listAudit({ target: seriesTarget(CIF), pageSize: 1 })).entries[0]!.id).toBe(entry.id);
    // Same mid, other ends: a change.
    expect((await setPoint(CIF, { date, low: 1010, high: 1020, expected: 1015 })).status).toBe(200);
    expect(await pointOn(CIF, date)).toEqual({ date, value: 1015, low: 1010, high: 1020 });
  });

  it.each([
    ['a low above the high', { low: 1025, high: 1005 }, 'low'],
    ['a low without a high', { low: 1005 }, 'high'],
    ['a high without a low', { high: 1025 }, 'low'],
    ['a low that is not a number', { low: 'abc', high: 1025 }, 'low'],
    ['a high with decimals a whole-dollar price has not', { low: 1005, high: 1025.5 }, 'high'],
    ['a value that is not the mid', { low: 1005, high: 1025, value: 1010 }, 'value'],
  ])('JSON: refuses %s (400 naming the field), writing nothing', async (_name, body, field) => {
    const date = uniqueDay();
    const before = (await db.listAudit()).total;
    const answer = await setPoint(CIF, { date, ...body });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ field });
    expect(await pointOn(CIF, date)).toBeNull();
    expect((await db.listAudit()).total).toBe(before);
  });

  it('JSON: a single-value series stays single: a range for it is refused', async () => {
    const date = uniqueDay();
    const answer = await expectNothingWritten(FX, [date], () => setPoint(FX, { date, low: 83, high: 84 }));
    expect(answer).toMatchObject({ status: 400, json: { error: { field: 'low' } } });
  });

  it('CSV: low and high columns; the value may be left out (the mid) or given as the mid; single rows leave them empty', async () => {
    const [a, b, c] = [uniqueDay(), uniqueDay(), uniqueDay()];
    const fx = uniqueFx();
    const answer = await importCsv(`${RANGE_HEADER}\n${CIF},${a},,1005,1025\n${CIF},${b},1012.5,1005,1020\n${CIF},${c},1030,,\n${FX},${a},${fx},,\n`);
    expect(answer).toMatchObject({ status: 200, json: { rows: 4, changed: 4 } });
    expect(await pointOn(CIF, a)).toEqual({ date: a, value: 1015, low: 1005, high: 1025 });
    expect(await pointOn(CIF, b)).toEqual({ date: b, value: 1012.5, low: 1005, high: 1020 });
    expect(await pointOn(CIF, c)).toEqual({ date: c, value: 1030 });
    expect(await pointOn(FX, a)).toEqual({ date: a, value: fx });
    // The same file again changes nothing.
    expect((await importCsv(`${RANGE_HEADER}\n${CIF},${a},,1005,1025\n`)).json).toMatchObject({ rows: 1, changed: 0 });
  });

  it.each([
    ['a low above the high', (d: string) => `${RANGE_HEADER}\n${CIF},${d},1015,1005,1025\n${CIF},2025-01-03,,1025,1005\n`, 3, 'low'],
    ['a low without a high', (d: string) => `${RANGE_HEADER}\n${CIF},${d},1015,1005,1025\n${CIF},2025-01-03,,1005,\n`, 3, 'high'],
    ['a high without a low', (d: string) => `${RANGE_HEADER}\n${CIF},${d},1015,1005,1025\n${CIF},2025-01-03,1015,,1025\n`, 3, 'low'],
    ['a low that is not a number', (d: string) => `${RANGE_HEADER}\n${CIF},${d},1015,1005,1025\n${CIF},2025-01-03,,1,005,1025\n`, 3, 'columns'],
    ['a high that is not a number', (d: string) => `${RANGE_HEADER}\n${CIF},${d},1015,1005,1025\n${CIF},2025-01-03,,1005,high\n`, 3, 'high'],
    ['a value that is not the mid', (d: string) => `${RANGE_HEADER}\n${CIF},${d},1015,1005,1025\n${CIF},2025-01-03,1000,1005,1025\n`, 3, 'value'],
    ['a range for a single-value series', (d: string) => `${RANGE_HEADER}\n${CIF},${d},1015,1005,1025\n${FX},2025-01-03,,83,84\n`, 3, 'low'],
    ['low and high in a three-column file', (d: string) => `${CSV_HEADER}\n${CIF},${d},1015\n${CIF},2025-01-03,1015,1005,1025\n`, 3, 'columns'],
  ])('CSV: refuses a file with %s: 400 naming the line and field; nothing of the file written', async (_name, make, line, field) => {
    const d = uniqueDay();
    const answer = await expectNothingWritten(CIF, [d], () => importCsv(make(d)));
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: 'invalid_csv', line, field });
  });
});
