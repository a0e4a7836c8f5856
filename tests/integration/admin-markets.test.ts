/**
 * The admin edits of city-wise sheets and international offers against the real SQLite store:
 * refused to non-admins, bad input writes nothing, good edits land with their audit entry, a
 * concurrent edit of one city price cannot silently win; a city price kept as a range is saved
 * through the page's own form with its low and high.
 */
import { getContainerRenderer } from '@astrojs/react/container-renderer';
import type { APIContext, APIRoute } from 'astro';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { beforeAll, describe, expect, it } from 'vitest';
import MarketsPage from '../../src/pages/admin/markets.astro';
import { formBody } from '../../src/lib/admin/forms.ts';
import { POST as setCity } from '../../src/pages/api/admin/citywise/[city]/set.ts';
import { POST as setOffers } from '../../src/pages/api/admin/offers/[country]/set.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { store } from '../../src/server/runtime.ts';
import type { Store } from '../../src/server/store/index.ts';
import { cityTarget, offersTarget } from '../../src/server/store/priceAdmin.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { addDays, isoDateOf } from '../../src/lib/dates.ts';

const ORIGIN = 'http://127.0.0.1:4321';
let db: Store;
let admin: UserRecord;
let seq = 0;

const sessionOf = (record: UserRecord, entitlement: Session['entitlement']): Session => ({ uid: record.uid, email: record.email, record, entitlement, inTrial: false });

async function createUser(role: string): Promise<UserRecord> {
  const uid = `markets-${role}-${Date.now().toString(36)}-${++seq}`;
  const record: UserRecord = { uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role, subscribed: false, plan: null, createdAt: '01-01-2026' };
  await db.createUser(record);
  return record;
}

// A distinct far-past day per call, so reruns on one DATA_DIR never collide with each other or the demo data.
let day = 0;
const offset = Math.floor(Date.now() / 1000) % 20_000;
const uniqueDay = () => new Date(Date.UTC(1901, 0, 1) + (offset + day++) * 86_400_000).toISOString().slice(0, 10);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
async function call(route: APIRoute, path: string, params: Record<string, string>, body: unknown, session: Session | null, origin = ORIGIN): Promise<{ status: number; json: any }> {
  const url = new URL(path, ORIGIN);
  const request = new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const response = await route({ request, url, params, locals: { session } } as unknown as APIContext);
  return { status: response.status, json: await response.json() };
}

beforeAll(async () => {
  db = await store();
  admin = await createUser('admin');
});

async function priceOn(city: string, date: string, grade: string): Promise<number | null> {
  return (await db.citySheetOn(city, date)).find((r) => r.grade === grade)?.price ?? null;
}

describe('POST /api/admin/citywise/{city}/set', () => {
  it('writes a range (low and high, the mid derived), audited with both ends', async () => {
    const date = '1901-02-04';
    const answer = await call(setCity, '/api/admin/citywise/indore/set', { city: 'indore' }, { date, grade: 'ppFilm', low: '109.25', high: '110.75' }, sessionOf(admin, 'admin'));
    expect(answer.status).toBe(200);
    expect((await db.citySheetOn('indore', date)).find((r) => r.grade === 'ppFilm')).toMatchObject({ price: 110, low: 109.25, high: 110.75 });
    const entry = (await db.listAudit({ target: cityTarget('indore'), pageSize: 1 })).entries[0]!;
    expect(entry.after).toEqual({ grade: 'ppFilm', date, value: 110, low: 109.25, high: 110.75 });
    // Removing it: no price, no low, no high.
    expect((await call(setCity, '/api/admin/citywise/indore/set', { city: 'indore' }, { date, grade: 'ppFilm', price: '', expected: 110 }, sessionOf(admin, 'admin'))).status).toBe(200);
    expect(await priceOn('indore', date, 'ppFilm')).toBeNull();
  });

  it('adds, changes and removes one row of a sheet, each audited', async () => {
    const date = uniqueDay();
    const before = (await db.listAudit({ target: cityTarget('mumbai') })).total;
    const add = await call(setCity, '/api/admin/citywise/mumbai/set', { city: 'mumbai' }, { date, grade: 'ppRaffia', price: 104.5 }, sessionOf(admin, 'admin'));
    expect(add.status, JSON.stringify(add.json)).toBe(200);
    expect(await priceOn('mumbai', date, 'ppRaffia')).toBe(104.5);
    const change = await call(setCity, '/api/admin/citywise/mumbai/set', { city: 'mumbai' }, { date, grade: 'ppRaffia', price: '105', expected: 104.5 }, sessionOf(admin, 'admin'));
    expect(change.status).toBe(200);
    const remove = await call(setCity, '/api/admin/citywise/mumbai/set', { city: 'mumbai' }, { date, grade: 'ppRaffia', price: '', expected: 105 }, sessionOf(admin, 'admin'));
    expect(remove.status).toBe(200);
    expect(await priceOn('mumbai', date, 'ppRaffia')).toBeNull();
    const entries = (await db.listAudit({ target: cityTarget('mumbai'), pageSize: 3 })).entries;
    expect((await db.listAudit({ target: cityTarget('mumbai') })).total).toBe(before + 3);
    expect(entries.map((e) => e.action)).toEqual(['citywise.delete', 'citywise.change', 'citywise.add']);
    expect(entries[0]?.actor.uid).toBe(admin.uid);
  });

  it('answers 409 with the current price when it changed meanwhile, and writes nothing', async () => {
    const date = uniqueDay();
    await call(setCity, '/api/admin/citywise/delhi/set', { city: 'delhi' }, { date, grade: 'hdpeFilm', price: 110 }, sessionOf(admin, 'admin'));
    const [a, b] = await Promise.all([
      call(setCity, '/api/admin/citywise/delhi/set', { city: 'delhi' }, { date, grade: 'hdpeFilm', price: 111, expected: 110 }, sessionOf(admin, 'admin')),
      call(setCity, '/api/admin/citywise/delhi/set', { city: 'delhi' }, { date, grade: 'hdpeFilm', price: 112, expected: 110 }, sessionOf(admin, 'admin')),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    const winner = a.status === 200 ? 111 : 112;
    expect(loser.json.current).toBe(winner);
    expect(await priceOn('delhi', date, 'hdpeFilm')).toBe(winner);
  });

  it.each([
    ['a bad date', { date: '2026-02-30', grade: 'ppRaffia', price: 100 }, 400, 'date'],
    ['an unknown grade', { date: '1901-01-01', grade: 'ppGold', price: 100 }, 400, 'grade'],
    ['a price out of range', { date: '1901-01-01', grade: 'ppRaffia', price: 5000 }, 400, 'price'],
    ['a negative price', { date: '1901-01-01', grade: 'ppRaffia', price: -3 }, 400, 'price'],
    ['a price that is not a number', { date: '1901-01-01', grade: 'ppRaffia', price: 'cheap' }, 400, 'price'],
    ['a low above the high', { date: '1901-01-01', grade: 'ppRaffia', low: 111, high: 109 }, 400, 'low'],
    ['a low without a high', { date: '1901-01-01', grade: 'ppRaffia', low: 109 }, 400, 'high'],
    ['a high that is not a number', { date: '1901-01-01', grade: 'ppRaffia', low: 109, high: 'dear' }, 400, 'high'],
    ['a price that is not the mid of its range', { date: '1901-01-01', grade: 'ppRaffia', low: 109, high: 111, price: 109.5 }, 400, 'price'],
  ])('refuses %s with a 400 naming the field, writing nothing', async (_label, body, status, field) => {
    const total = (await db.listAudit()).total;
    const answer = await call(setCity, '/api/admin/citywise/pune/set', { city: 'pune' }, body, sessionOf(admin, 'admin'));
    expect(answer.status).toBe(status);
    expect(answer.json.error.field).toBe(field);
    expect((await db.listAudit()).total).toBe(total);
  });

  describe('a cell kept as a range (city sheets are quoted low–high)', () => {
    const put = (date: string, body: Record<string, unknown>) => call(setCity, '/api/admin/citywise/kolkata/set', { city: 'kolkata' }, { date, grade: 'ppRaffia', ...body }, sessionOf(admin, 'admin'));
    const rowOn = async (date: string) => (await db.citySheetOn('kolkata', date)).find((r) => r.grade === 'ppRaffia');

    /**
     * The admin page's form for kolkata's PP Raffia on `date`, as rendered: its action and its
     * fields (name → value) as the browser's FormData takes them: the inputs inside the form and
     * those in the row's cells tied to it by their form attribute.
     */
    async function cityForm(date: string): Promise<{ action: string; fields: [string, string][] }> {
      const container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
      const response = await container.renderToResponse(MarketsPage, { request: new Request(`${ORIGIN}/admin/markets?city=kolkata&date=${date}`), locals: { session: sessionOf(admin, 'admin') }, partial: false });
      expect(response.status).toBe(200);
      const html = await response.text();
      const form = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].find((m) => m[2]!.includes('name="grade" value="ppRaffia"'));
      expect(form, 'the PP Raffia form').toBeDefined();
      const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
      const id = attr(form![1]!, 'id');
      const inputs = [...form![2]!.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]);
      if (id) inputs.push(...[...html.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]).filter((tag) => attr(tag, 'form') === id));
      return { action: attr(form![1]!, 'action')!, fields: inputs.map((tag): [string, string] => [attr(tag, 'name')!, attr(tag, 'value') ?? '']) };
    }

    it('saving it through the form as the page renders it keeps its low and high (unchanged), and a new high is a range change audited with both ends', async () => {
      const date = uniqueDay();
      expect((await put(date, { low: '108.5', high: '109.5' })).status).toBe(200);
      const { action, fields } = await cityForm(date);
      expect(action).toBe('/api/admin/citywise/kolkata/set');
      expect(Object.fromEntries(fields)).toMatchObject({ low: '108.5', high: '109.5', expected: '109' });
      expect(fields.map(([name]) => name)).not.toContain('price'); // no Value field for a range
      const total = (await db.listAudit({ target: cityTarget('kolkata') })).total;

      // Saved as shown: nothing changes, the ends stay.
      const same = await put(date, formBody(fields));
      expect(same.status, JSON.stringify(same.json)).toBe(200);
      expect(await rowOn(date)).toMatchObject({ price: 109, low: 108.5, high: 109.5 });
      expect((await db.listAudit({ target: cityTarget('kolkata') })).total).toBe(total);

      // The desk types a new high into the form.
      const edited = await put(date, formBody(fields.map(([name, value]) => [name, name === 'high' ? '110.5' : value])));
      expect(edited.status, JSON.stringify(edited.json)).toBe(200);
      expect(await rowOn(date)).toMatchObject({ price: 109.5, low: 108.5, high: 110.5 });
      const [entry] = (await db.listAudit({ target: cityTarget('kolkata'), pageSize: 1 })).entries;
      expect(entry).toMatchObject({
        action: 'citywise.change',
        before: { grade: 'ppRaffia', date, value: 109, low: 108.5, high: 109.5 },
        after: { grade: 'ppRaffia', date, value: 109.5, low: 108.5, high: 110.5 },
      });
    });

    it('a cell kept as one number shows its Value beside empty Low and High; giving the range (Value cleared) makes it one', async () => {
      const date = uniqueDay();
      expect((await put(date, { price: '104.5' })).status).toBe(200);
      const { fields } = await cityForm(date);
      expect(Object.fromEntries(fields)).toMatchObject({ price: '104.5', low: '', high: '', expected: '104.5' });
      const given = fields.map(([name, value]): [string, string] => [name, name === 'low' ? '104' : name === 'high' ? '105' : name === 'price' ? '' : value]);
      expect((await put(date, formBody(given))).status).toBe(200);
      expect(await rowOn(date)).toMatchObject({ price: 104.5, low: 104, high: 105 });
    });

    it.each([
      ['a low without its high', { low: '108' }, 'high', /needs its high/],
      ['a high without its low', { high: '110' }, 'low', /needs its low/],
      ['a low above the high', { low: '110', high: '108' }, 'low', /must not be above the high/],
      ['a high out of range', { low: '108', high: '5000' }, 'high', /between 5 and 1000/],
      ['a low with too many decimals', { low: '108.125', high: '110' }, 'low', /at most 2 decimals/],
      ['a value that is not the mid', { low: '108', high: '110', price: '108.5' }, 'price', /its mid, 109/],
      ['one number for it (the ends would be lost)', { price: '109' }, 'low', /kept as a range \(108\.50–109\.50\)/],
    ])('refuses %s: 400 naming the field, the stored range and the audit untouched', async (_label, body, field, message) => {
      const date = uniqueDay();
      expect((await put(date, { low: 108.5, high: 109.5 })).status).toBe(200);
      const total = (await db.listAudit()).total;
      const answer = await put(date, { ...body, expected: 109 });
      expect(answer.status, JSON.stringify(answer.json)).toBe(400);
      expect(answer.json.error).toMatchObject({ code: 'invalid_input', field, message: expect.stringMatching(message) });
      expect(await rowOn(date)).toMatchObject({ price: 109, low: 108.5, high: 109.5 });
      expect((await db.listAudit()).total).toBe(total);
    });

    it('low equal to high gives one number on purpose; clearing every field removes the cell', async () => {
      const date = uniqueDay();
      expect((await put(date, { low: 108.5, high: 109.5 })).status).toBe(200);
      expect((await put(date, { low: '109', high: '109', expected: 109 })).status).toBe(200);
      expect(await rowOn(date)).toMatchObject({ price: 109, low: 109, high: 109 });
      expect((await put(date, { expected: 109 })).status).toBe(200);
      expect(await rowOn(date)).toBeUndefined();
    });
  });

  it.each([addDays(isoDateOf(new Date()), 1), '2999-12-31'])('refuses a sheet row dated after today (IST), %s: 400 naming the date, writing nothing', async (date) => {
    const total = (await db.listAudit()).total;
    const answer = await call(setCity, '/api/admin/citywise/pune/set', { city: 'pune' }, { date, grade: 'ppRaffia', price: 100 }, sessionOf(admin, 'admin'));
    expect(answer).toMatchObject({ status: 400, json: { error: { code: 'invalid_input', field: 'date', message: expect.stringMatching(/after today/) } } });
    expect(await priceOn('pune', date, 'ppRaffia')).toBeNull();
    expect((await db.listAudit()).total).toBe(total);
  });

  it('answers 404 for an unknown city, and refuses non-admins and other sites', async () => {
    const body = { date: uniqueDay(), grade: 'ppRaffia', price: 100 };
    expect((await call(setCity, '/api/admin/citywise/chennai/set', { city: 'chennai' }, body, sessionOf(admin, 'admin'))).status).toBe(404);
    const premium = await createUser('user');
    expect((await call(setCity, '/api/admin/citywise/pune/set', { city: 'pune' }, body, null)).status).toBe(401);
    expect((await call(setCity, '/api/admin/citywise/pune/set', { city: 'pune' }, body, sessionOf(premium, 'full'))).status).toBe(403);
    // A session that claims the admin entitlement without the admin role is still refused.
    expect((await call(setCity, '/api/admin/citywise/pune/set', { city: 'pune' }, body, sessionOf(premium, 'admin'))).status).toBe(403);
    expect((await call(setCity, '/api/admin/citywise/pune/set', { city: 'pune' }, body, sessionOf(admin, 'admin'), 'https://evil.example')).status).toBe(403);
    expect(await priceOn('pune', body.date, 'ppRaffia')).toBeNull();
  });
});

describe('POST /api/admin/offers/{country}/set', () => {
  it('sets a country’s offers of a date, audited, and a repeat changes nothing', async () => {
    const date = uniqueDay();
    const data = { PP: { Raffia: 1085, Film: 1110 }, HDPE: { 'Blow moulding': 1050 } };
    const before = (await db.listAudit({ target: offersTarget('USA') })).total;
    const first = await call(setOffers, '/api/admin/offers/USA/set', { country: 'USA' }, { date, data }, sessionOf(admin, 'admin'));
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json.changed).toBe(true);
    const [year, month] = date.split('-').map(Number) as [number, number];
    const stored = (await db.offersInMonth('USA', year, month)).find((o) => o.date === date);
    expect(stored?.data).toEqual(data);
    const again = await call(setOffers, '/api/admin/offers/USA/set', { country: 'USA' }, { date, data }, sessionOf(admin, 'admin'));
    expect(again.json.changed).toBe(false);
    expect((await db.listAudit({ target: offersTarget('USA') })).total).toBe(before + 1);
  });

  it.each([
    ['an empty map', { date: '1901-01-01', data: {} }, 'data'],
    ['a group without grades', { date: '1901-01-01', data: { PP: {} } }, 'data'],
    ['a value that is not a number', { date: '1901-01-01', data: { PP: { Raffia: '1085' } } }, 'data.PP.Raffia'],
    ['a value out of range', { date: '1901-01-01', data: { PP: { Raffia: 99999 } } }, 'data.PP.Raffia'],
    ['a bad date', { date: 'yesterday', data: { PP: { Raffia: 1000 } } }, 'date'],
  ])('refuses %s with a 400 naming the field, writing nothing', async (_label, body, field) => {
    const total = (await db.listAudit()).total;
    const answer = await call(setOffers, '/api/admin/offers/Egypt/set', { country: 'Egypt' }, body, sessionOf(admin, 'admin'));
    expect(answer.status).toBe(400);
    expect(answer.json.error.field).toBe(field);
    expect((await db.listAudit()).total).toBe(total);
  });

  it('takes a low and a high per offer (as the form sends them), keeps the mid derived, and audits the ends', async () => {
    const date = uniqueDay();
    const [year, month] = date.split('-').map(Number) as [number, number];
    const body = { date, data: { PP: { Raffia: { low: '1005', high: '1020' }, Film: { low: 1100, high: 1110, value: 1105 } }, HDPE: { 'Blow moulding': 1050 } } };
    const first = await call(setOffers, '/api/admin/offers/India/set', { country: 'India' }, body, sessionOf(admin, 'admin'));
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const ranges = { PP: { Raffia: { low: 1005, high: 1020 }, Film: { low: 1100, high: 1110 } } };
    expect((await db.offersInMonth('India', year, month)).find((o) => o.date === date)).toEqual({
      country: 'India', date, data: { PP: { Raffia: 1012.5, Film: 1105 }, HDPE: { 'Blow moulding': 1050 } }, ranges,
    });
    const [added] = (await db.listAudit({ target: offersTarget('India'), pageSize: 1 })).entries;
    expect(added).toMatchObject({ action: 'offers.add', after: { date, ranges } });
    // The same mids with other ends is a change; its entry holds both ranges.
    const wider = await call(setOffers, '/api/admin/offers/India/set', { country: 'India' }, { date, data: { ...body.data, PP: { Raffia: { low: 1000, high: 1025 }, Film: { low: 1100, high: 1110 } } } }, sessionOf(admin, 'admin'));
    expect(wider.json.changed).toBe(true);
    const [changed] = (await db.listAudit({ target: offersTarget('India'), pageSize: 1 })).entries;
    expect(changed).toMatchObject({ action: 'offers.change', before: { ranges }, after: { data: { PP: { Raffia: 1012.5 } }, ranges: { PP: { Raffia: { low: 1000, high: 1025 } } } } });
  });

  it.each([
    ['a low without its high', { low: 1005 }, 'data.PP.Raffia.high', /needs its high/],
    ['a high without its low', { high: '1025' }, 'data.PP.Raffia.low', /needs its low/],
    ['a low above the high', { low: 1030, high: 1020 }, 'data.PP.Raffia.low', /must not be above the high/],
    ['a low out of range', { low: 5, high: 1020 }, 'data.PP.Raffia.low', /between 50 and 10000/],
    ['a high with decimals (offers are whole dollars)', { low: 1005, high: '1020.5' }, 'data.PP.Raffia.high', /whole number/],
    ['a value that is not the mid', { low: 1005, high: 1025, value: 1010 }, 'data.PP.Raffia.value', /its mid, 1015/],
    ['an end that is not a number', { low: 'ten', high: 1025 }, 'data.PP.Raffia.low', /plain number/],
    ['an unknown field', { low: 1005, high: 1025, mid: 1015 }, 'data.PP.Raffia', /number \(US\$\/t\) or a range/],
  ])('refuses %s with a 400 naming the field, writing nothing (the good offers beside it neither)', async (_label, cell, field, message) => {
    const date = uniqueDay();
    const [year, month] = date.split('-').map(Number) as [number, number];
    const total = (await db.listAudit()).total;
    const answer = await call(setOffers, '/api/admin/offers/India/set', { country: 'India' }, { date, data: { HDPE: { Film: { low: 1100, high: 1110 } }, PP: { Raffia: cell } } }, sessionOf(admin, 'admin'));
    expect(answer.status, JSON.stringify(answer.json)).toBe(400);
    expect(answer.json.error).toMatchObject({ code: 'invalid_input', field, message });
    expect((await db.offersInMonth('India', year, month)).find((o) => o.date === date)).toBeUndefined();
    expect((await db.listAudit()).total).toBe(total);
  });

  it('refuses offers dated after today (IST): 400 naming the date, writing nothing', async () => {
    const date = addDays(isoDateOf(new Date()), 1);
    const total = (await db.listAudit()).total;
    const answer = await call(setOffers, '/api/admin/offers/Egypt/set', { country: 'Egypt' }, { date, data: { PP: { Raffia: 1000 } } }, sessionOf(admin, 'admin'));
    expect(answer).toMatchObject({ status: 400, json: { error: { field: 'date', message: expect.stringMatching(/after today/) } } });
    const [year, month] = date.split('-').map(Number) as [number, number];
    expect((await db.offersInMonth('Egypt', year, month)).find((o) => o.date === date)).toBeUndefined();
    expect((await db.listAudit()).total).toBe(total);
  });

  it('answers 404 for an unknown country and refuses non-admins', async () => {
    const body = { date: uniqueDay(), data: { PP: { Raffia: 1000 } } };
    expect((await call(setOffers, '/api/admin/offers/Atlantis/set', { country: 'Atlantis' }, body, sessionOf(admin, 'admin'))).status).toBe(404);
    expect((await call(setOffers, '/api/admin/offers/USA/set', { country: 'USA' }, body, null)).status).toBe(401);
    const user = await createUser('user');
    expect((await call(setOffers, '/api/admin/offers/USA/set', { country: 'USA' }, body, sessionOf(user, 'full'))).status).toBe(403);
  });
});
