// The legacy price API, calling each endpoint's exported GET with an APIContext-like object,
// against a real SQLite store (seeded with demo data on first open) in a temp DATA_DIR.
import { join, resolve } from 'node:path';
import type { APIContext, APIRoute } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entitlement } from '../../src/lib/access/policy.ts';
import { checkImport } from '../../src/lib/admin/priceImport.ts';
import { isoDateOf } from '../../src/lib/dates.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { TEST_DATA_DIR } from './env.ts';

// vitest.config.ts points DATA_DIR (read by astro:env/server) at TEST_DATA_DIR, emptied by the
// global setup before the run: the runtime store opens (and seeds) there.
const dir = resolve(TEST_DATA_DIR);

type Endpoints = Record<string, APIRoute>;
let api: Endpoints;
const currentYear = Number(isoDateOf(new Date()).slice(0, 4));
const lastYear = currentYear - 1;

beforeAll(async () => {
  // Imported after DATA_DIR is set: the runtime store opens (and seeds) there.
  api = {
    feedstock: (await import('../../src/pages/api/feedstock.ts')).GET,
    historicaldata: (await import('../../src/pages/api/historicaldata.ts')).GET,
    internationaloffers: (await import('../../src/pages/api/internationaloffers.ts')).GET,
    citywise: (await import('../../src/pages/api/citywise/index.ts')).GET,
    city: (await import('../../src/pages/api/citywise/[city].ts')).GET,
    blogs: (await import('../../src/pages/api/blogs.ts')).GET,
    carousels: (await import('../../src/pages/api/carousels/index.ts')).GET,
    export: (await import('../../src/pages/api/export/[series].csv.ts')).GET,
  };
});

afterAll(async () => {
  // The runtime's own close: the next user of the runtime (a later file in this worker) opens it anew.
  await (await import('../../src/server/runtime.ts')).closeStore();
});

const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
/** The record of a subscriber to `plan` (the history reach is read from the record's plan). */
const subscriber = (plan: string) => ({ uid: `u-${plan}`, role: 'user', subscribed: true, plan, createdAt: '01-01-2020', expiresAt: inAYear }) as unknown as Session['record'];
/** `full` is a Platinum subscriber: the whole archive. */
const sessionAs = (entitlement: Entitlement | 'anonymous', record: Session['record'] = entitlement === 'full' ? subscriber('Platinum') : null): Session | null =>
  entitlement === 'anonymous' ? null : { uid: `u-${entitlement}`, email: `${entitlement}@polyindex.test`, record, entitlement, inTrial: null };

async function call(
  endpoint: string,
  path: string,
  options: { params?: Record<string, string>; role?: Entitlement | 'anonymous'; record?: Session['record']; headers?: Record<string, string> } = {},
): Promise<Response> {
  const url = new URL(path, 'http://127.0.0.1:4321');
  const request = new Request(url, { headers: options.headers ?? {} });
  const context = { request, url, params: options.params ?? {}, locals: { session: sessionAs(options.role ?? 'full', options.record) } };
  return api[endpoint]!(context as unknown as APIContext);
}

const body = async (response: Response) => (await response.json()) as Record<string, unknown>;

async function expectBadRequest(response: Response, field: string | null) {
  expect(response.status).toBe(400);
  const json = (await response.json()) as { error: { code: string; message: string; field: string | null } };
  expect(json.error.field).toBe(field);
  expect(json.error.code).toBeTruthy();
  expect(json.error.message.length).toBeGreaterThan(5);
}

const ascending = (keys: string[]) => {
  const iso = keys.map((k) => k.split('/').reverse().join('-'));
  return iso.every((d, i) => i === 0 || d > iso[i - 1]!);
};

const gated: [string, string, Record<string, string>?][] = [
  ['feedstock', '/api/feedstock?name=Naphtha&country=japan'],
  ['historicaldata', '/api/historicaldata?polymer=ppRaffia'],
  ['internationaloffers', '/api/internationaloffers?country=USA'],
  ['citywise', '/api/citywise'],
  ['city', '/api/citywise/mumbai', { city: 'mumbai' }],
  ['blogs', '/api/blogs?type=blog'],
  ['export', '/api/export/fx.usdinr.csv', { series: 'fx.usdinr' }],
];

describe('roles on every data endpoint', () => {
  it.each(gated)('%s: anonymous 401, none/limited 403, full/admin 200', async (endpoint, path, params) => {
    const status = async (role: Entitlement | 'anonymous') => (await call(endpoint, path, { role, ...(params ? { params } : {}) })).status;
    expect(await status('anonymous')).toBe(401);
    expect(await status('none')).toBe(403);
    expect(await status('limited')).toBe(403);
    expect(await status('full')).toBe(200);
    expect(await status('admin')).toBe(200);
    const denied = await call(endpoint, path, { role: 'anonymous', ...(params ? { params } : {}) });
    expect(await body(denied)).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) } });
  });

  it('refuses before validating: a bad query from an anonymous visitor is 401, not 400', async () => {
    expect((await call('feedstock', '/api/feedstock?name=nope', { role: 'anonymous' })).status).toBe(401);
  });

  it('carousels are public', async () => {
    expect((await call('carousels', '/api/carousels/', { role: 'anonymous' })).status).toBe(200);
  });
});

describe('GET /api/feedstock', () => {
  it('answers {data:{key,value}} for a year, daily, ascending, dd/mm/yyyy', async () => {
    const response = await call('feedstock', `/api/feedstock?name=naphtha&country=Japan&type=Daily&year=${lastYear}`);
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { key: string[]; value: number[] } };
    expect(data.key.length).toBeGreaterThan(250);
    expect(data.key.length).toBe(data.value.length);
    expect(data.key[0]).toMatch(new RegExp(`^0[1-5]/01/${lastYear}$`));
    expect(data.key.at(-1)).toMatch(new RegExp(`^\\d\\d/12/${lastYear}$`));
    expect(ascending(data.key)).toBe(true);
    for (const v of data.value) expect(v).toBeGreaterThan(400);
  });

  it('averages per month, week and year', async () => {
    const monthly = (await body(await call('feedstock', `/api/feedstock?name=Crude&country=brent&type=Monthly&year=${lastYear}`))) as { data: { key: string[] } };
    expect(monthly.data.key).toEqual(Array.from({ length: 12 }, (_, i) => `01/${String(i + 1).padStart(2, '0')}/${lastYear}`));
    const weekly = (await body(await call('feedstock', `/api/feedstock?name=Crude&country=brent&type=weekly&year=${lastYear}`))) as { data: { key: string[] } };
    expect(weekly.data.key.length).toBeGreaterThanOrEqual(52);
    expect(weekly.data.key.length).toBeLessThanOrEqual(53);
    const yearly = (await body(await call('feedstock', `/api/feedstock?name=Crude&country=brent&type=Yearly&year=${lastYear}`))) as { data: { key: string[]; value: number[] } };
    expect(yearly.data.key).toEqual([`01/01/${lastYear}`]);
    expect(yearly.data.value[0]).toBeGreaterThan(60);
  });

  it('defaults to the last twelve months, daily, and the first sub-market', async () => {
    const { data } = (await body(await call('feedstock', '/api/feedstock?name=EDC'))) as { data: { key: string[] } };
    expect(data.key.length).toBeGreaterThan(240);
    expect(data.key.length).toBeLessThan(270);
  });

  it.each([
    ['/api/feedstock', 'name'],
    ['/api/feedstock?name=Gold', 'name'],
    ['/api/feedstock?name=Naphtha&country=mars', 'country'],
    ['/api/feedstock?name=EDC&country=korea', 'country'],
    ['/api/feedstock?name=Naphtha&type=Hourly', 'type'],
    ['/api/feedstock?name=Naphtha&year=abc', 'year'],
    ['/api/feedstock?name=Naphtha&year=1999', 'year'],
    [`/api/feedstock?name=Naphtha&year=${currentYear + 1}`, 'year'],
    ['/api/feedstock?name=Naphtha&year=2020.5', 'year'],
  ])('400 for %s (field %s)', async (path, field) => {
    await expectBadRequest(await call('feedstock', path), field);
  });

  it('sends a private Cache-Control and an ETag, and 304 when the client has the body', async () => {
    const path = `/api/feedstock?name=Naphtha&country=china&year=${lastYear}`;
    const first = await call('feedstock', path);
    const etag = first.headers.get('ETag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('Cache-Control')).toBe('private, max-age=60');
    const again = await call('feedstock', path, { headers: { 'If-None-Match': `"other", W/${etag}` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const changed = await call('feedstock', path, { headers: { 'If-None-Match': '"stale"' } });
    expect(changed.status).toBe(200);
  });
});

describe('GET /api/historicaldata', () => {
  it.each(['PP%20Raffia', 'pp+raffia', 'PP-Raffia'])('accepts the original clients\' grade name %s as an alias of ppRaffia', async (alias) => {
    const canonical = await body(await call('historicaldata', `/api/historicaldata?polymer=ppRaffia&year=${lastYear}`));
    const aliased = await call('historicaldata', `/api/historicaldata?polymer=${alias}&year=${lastYear}`);
    expect(aliased.status).toBe(200);
    expect(await body(aliased)).toEqual(canonical);
  });

  it('answers Mumbai and CIF NS, dates ascending with values beside them', async () => {
    const response = await call('historicaldata', `/api/historicaldata?polymer=ppRaffia&year=${lastYear}`);
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Record<string, { date: string[]; value: number[] }> };
    expect(Object.keys(data)).toEqual(['Mumbai', 'CIF NS']);
    for (const series of Object.values(data)) {
      expect(series.date.length).toBeGreaterThanOrEqual(52);
      expect(series.date.length).toBe(series.value.length);
      expect(ascending(series.date)).toBe(true);
    }
    for (const v of data['Mumbai']!.value) expect(v).toBeGreaterThan(70);
    for (const v of data['CIF NS']!.value) expect(v).toBeGreaterThan(800);
  });

  it.each([
    ['/api/historicaldata', 'polymer'],
    ['/api/historicaldata?polymer=PP', 'polymer'],
    ['/api/historicaldata?polymer=PPRAFFIA', 'polymer'],
    ['/api/historicaldata?polymer=PP%20Raffia%20Film', 'polymer'],
    ['/api/historicaldata?polymer=ppRaffia&year=20x4', 'year'],
  ])('400 for %s (field %s)', async (path, field) => {
    await expectBadRequest(await call('historicaldata', path), field);
  });
});

describe('GET /api/internationaloffers', () => {
  it('answers the month’s offers as {data:{data:[{date,data:{group:{grade:value}}}]}}', async () => {
    const response = await call('internationaloffers', `/api/internationaloffers?country=usa&month=6&year=${lastYear}`);
    const { data } = (await response.json()) as { data: { data: { date: string; data: Record<string, Record<string, number>> }[] } };
    expect(data.data).toHaveLength(2);
    expect(data.data[0]!.date).toMatch(new RegExp(`^\\d\\d/06/${lastYear}$`));
    expect(Object.keys(data.data[0]!.data)).toEqual(['PP', 'HDPE', 'LLDPE', 'LDPE', 'PVC']);
    expect(data.data[0]!.data['PP']!['Raffia']).toBeGreaterThan(700);
  });

  it('carries the ends of range cells in ranges; a range’s value is its mid, exact to a half dollar', async () => {
    const { data } = (await (await call('internationaloffers', `/api/internationaloffers?country=India&month=6&year=${lastYear}`)).json()) as {
      data: { data: { date: string; data: Record<string, Record<string, number>>; ranges?: Record<string, Record<string, { low: number; high: number }>> }[] };
    };
    expect(data.data.length).toBeGreaterThan(0);
    for (const day of data.data) {
      expect(day.ranges, day.date).toBeDefined();
      for (const [group, grades] of Object.entries(day.ranges!)) {
        for (const [grade, { low, high }] of Object.entries(grades)) {
          expect(low).toBeLessThan(high);
          expect(day.data[group]![grade]).toBe((low + high) / 2);
        }
      }
    }
    // A day written by the desk: one range with a half-dollar mid, one single value.
    const { store } = await import('../../src/server/runtime.ts');
    await (await store()).upsertOffers([{ country: 'Egypt', date: `${lastYear}-02-07`, data: { PP: { Raffia: 1012.5, Homo: 1030 } }, ranges: { PP: { Raffia: { low: 1005, high: 1020 } } } }]);
    const answer = (await (await call('internationaloffers', `/api/internationaloffers?country=Egypt&month=2&year=${lastYear}`)).json()) as { data: { data: { date: string }[] } };
    expect(answer.data.data.find((d) => d.date === `07/02/${lastYear}`)).toEqual({ date: `07/02/${lastYear}`, data: { PP: { Raffia: 1012.5, Homo: 1030 } }, ranges: { PP: { Raffia: { low: 1005, high: 1020 } } } });
  });

  it.each([
    ['/api/internationaloffers', 'country'],
    ['/api/internationaloffers?country=Mars', 'country'],
    ['/api/internationaloffers?country=USA&month=13&year=2020', 'month'],
    ['/api/internationaloffers?country=USA&month=abc', 'month'],
    ['/api/internationaloffers?country=USA&month=1&year=1990', 'year'],
  ])('400 for %s (field %s)', async (path, field) => {
    await expectBadRequest(await call('internationaloffers', path), field);
  });
});

describe('GET /api/citywise and /api/citywise/{city}', () => {
  it('lists every city, Ahmedabad first, with display and call values', async () => {
    const { data } = (await body(await call('citywise', '/api/citywise'))) as {
      data: { city: string; call: string; entries: { display: string; call: string; price: number }[] }[];
    };
    expect(data.map((c) => c.city)).toEqual(['Ahmedabad', 'Mumbai', 'Delhi', 'Kolkata', 'Bangalore', 'Pune', 'Indore']);
    expect(data[0]!.entries[0]).toMatchObject({ type: 'PP', display: 'PP Raffia', call: 'ppRaffia' });
  });

  it('answers one city’s sheet, and 400 for an unknown city', async () => {
    const { data } = (await body(await call('city', '/api/citywise/Pune', { params: { city: 'Pune' } }))) as { data: { call: string }[] };
    expect(data.length).toBe(17);
    await expectBadRequest(await call('city', '/api/citywise/atlantis', { params: { city: 'atlantis' } }), 'city');
  });

  it('answers any past date’s sheet (the city-wise history), an empty list on a day without one, 400 for a bad date', async () => {
    const { store: getStore } = await import('../../src/server/runtime.ts');
    const dates = await (await getStore()).citySheetDates('pune', {});
    expect(dates.length).toBe(104);
    const old = dates[10]!;
    const { data } = (await body(await call('city', `/api/citywise/pune?date=${old}`, { params: { city: 'pune' } }))) as { data: { date: string; price: number }[] };
    expect(data.length).toBe(17);
    for (const entry of data) expect(entry.date).toBe(old.split('-').reverse().join('/'));
    const latest = (await body(await call('city', '/api/citywise/pune', { params: { city: 'pune' } }))) as { data: { date: string }[] };
    expect(latest.data[0]!.date).toBe(dates.at(-1)!.split('-').reverse().join('/'));
    expect(await body(await call('city', '/api/citywise/pune?date=1999-01-04', { params: { city: 'pune' } }))).toEqual({ data: [] });
    for (const bad of ['2025-02-30', '04-01-2025', 'yesterday']) {
      await expectBadRequest(await call('city', `/api/citywise/pune?date=${bad}`, { params: { city: 'pune' } }), 'date');
    }
  });
});

describe('the city-wise history screen’s reads', () => {
  it('finds a past month’s sheets, shows the one asked for, and compares one grade between two cities over the year', async () => {
    const { store: getStore } = await import('../../src/server/runtime.ts');
    const { readCitywiseHistory } = await import('../../src/server/citywiseHistory.ts');
    const store = await getStore();
    const dates = await store.citySheetDates('delhi', {});
    const old = dates[20]!;
    const [year, month] = [Number(old.slice(0, 4)), Number(old.slice(5, 7))];
    const query = new URLSearchParams({ city: 'delhi', year: String(year), month: String(month), date: old, grade: 'hdpeFilm', vs: 'bangalore' });
    const history = await readCitywiseHistory(store, query);
    expect(history.city.slug).toBe('delhi');
    expect(history.dates).toEqual(dates.filter((d) => d.startsWith(old.slice(0, 7))));
    expect(history.date).toBe(old);
    expect(history.entries).toHaveLength(17);
    expect(history.years).toContain(year);
    const rows = await store.cityGradeHistory('hdpeFilm', ['delhi', 'bangalore'], { from: `${year}-01-01`, to: `${year}-12-31` });
    expect(history.compare.rows.length).toBe(new Set(rows.map((r) => r.date)).size);
    for (const row of history.compare.rows) {
      const a = rows.find((r) => r.city === 'delhi' && r.date === row.date)!.price;
      const b = rows.find((r) => r.city === 'bangalore' && r.date === row.date)!.price;
      expect(row).toEqual({ date: row.date, a, b, difference: Math.round((b - a) * 100) / 100 });
    }
    // Bad values fall back: an unknown grade, the same city twice, a date outside the month.
    const fallback = await readCitywiseHistory(store, new URLSearchParams({ city: 'delhi', year: String(year), month: String(month), date: '1999-01-04', grade: 'gold', vs: 'delhi' }));
    expect(fallback.date).toBe(history.dates.at(-1));
    expect(fallback.compare.grade.grade.key).toBe('ppRaffia');
    expect(fallback.compare.vs.slug).not.toBe('delhi');
  });
});

describe('GET /api/blogs', () => {
  it('lists a type’s posts oldest first (the legacy client reverses them)', async () => {
    const { data } = (await body(await call('blogs', '/api/blogs?type=plant-news'))) as { data: { date: string; type: string }[] };
    expect(data.length).toBeGreaterThan(0);
    for (const post of data) expect(post.type).toBe('plant-news');
    // Oldest first; several posts may share a day (other suites publish today's).
    const iso = data.map((p) => p.date.split('/').reverse().join('-'));
    expect(iso).toEqual(iso.toSorted());
  });

  it.each([
    ['/api/blogs?type=gossip', 'type'],
    ['/api/blogs?type=blog&month=3', 'year'],
    ['/api/blogs?type=blog&year=abc', 'year'],
    ['/api/blogs?type=blog&year=2020&month=0', 'month'],
  ])('400 for %s (field %s)', async (path, field) => {
    await expectBadRequest(await call('blogs', path), field);
  });
});

describe('GET /api/carousels/', () => {
  it('answers the stored banner list as the body, publicly cacheable', async () => {
    const { store: getStore } = await import('../../src/server/runtime.ts');
    const store = await getStore();
    const banners = [{ id: 'b1', title: 'Feedstocks', subtitle: 'Daily', href: '/crude', image: '/banners/feedstock-curve.svg', alt: 'A feedstock curve', order: 1 }];
    await store.replaceBanners(banners);
    const response = await call('carousels', '/api/carousels/', { role: 'anonymous' });
    expect(response.headers.get('Cache-Control')).toMatch(/^public/);
    expect(await response.json()).toEqual(banners);
  });
});

describe('GET /api/export/{series}.csv', () => {
  it('downloads every point of a series as CSV', async () => {
    const response = await call('export', '/api/export/feedstock.naphtha.japan.csv', { params: { series: 'feedstock.naphtha.japan' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="feedstock.naphtha.japan.csv"');
    const bytes = Buffer.from(await response.arrayBuffer());
    // A byte-order mark (spreadsheet programs then read ₹ right), the intro and basis header rows, the column header.
    expect(bytes.subarray(0, 3).toString('hex')).toBe('efbbbf');
    const text = bytes.toString('utf8');
    expect(text.startsWith('\uFEFF# PolyIndex prices:')).toBe(true);
    const lines = text.trim().split('\n');
    expect(lines[1]).toBe(
      '# basis: series=feedstock.naphtha.japan; label=Naphtha · Japan; basis=CFR Japan; price=desk assessment of traded levels; taxes=excl. import duties and taxes; unit=US$/t; published=daily (Mon–Fri) by 17:30 IST (after the Singapore close at 14:00 IST); source=PolyIndex price desk; methodology=http://127.0.0.1:4321/methodology/feedstocks; decimals=2',
    );
    expect(lines[2]).toBe('series,date,value');
    expect(lines.length).toBeGreaterThan(3000);
    expect(lines[3]).toMatch(/^feedstock\.naphtha\.japan,\d{4}-01-0\d,\d+(\.\d{1,2})?$/);
    // The file imports back as it is.
    expect(checkImport(text, isoDateOf(new Date()))).toMatchObject({ ok: true });
  });

  it("cuts the download at the plan's history depth (Premium: this year and the 5 before it)", async () => {
    const oldest = `${Number(new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' }).slice(0, 4)) - 5}-01-01`;
    const response = await call('export', '/api/export/feedstock.naphtha.japan.csv', { params: { series: 'feedstock.naphtha.japan' }, record: subscriber('Premium') });
    expect(response.status).toBe(200);
    // After the basis row and the column row: one line per point.
    const dates = (await response.text()).trim().split('\n').filter((line) => line.startsWith('feedstock.naphtha.japan,')).map((line) => line.split(',')[1]!);
    expect(dates.length).toBeGreaterThan(1000);
    expect(dates[0]! >= oldest).toBe(true);
    expect(dates[0]!.slice(0, 7)).toBe(oldest.slice(0, 7));
  });

  it('400 for an unknown series', async () => {
    await expectBadRequest(await call('export', '/api/export/nope.csv', { params: { series: 'nope' } }), 'series');
  });
});

describe('the runtime store', () => {
  it('lives in DATA_DIR and was seeded on first open', async () => {
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(dir, 'polyindex.db'))).toBe(true);
  });
});
