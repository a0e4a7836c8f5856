// The SQLite price store against real database files in a temp dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allSeries, feedstockSeriesId, FX_SERIES_ID } from '../../src/lib/seriesCatalog.ts';
import { openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import type { PointRow } from '../../src/server/store/prices.ts';
import { seedDemoPrices } from '../../src/server/store/seedDemo.ts';

let dir: string;
let store: Store;
const NAPHTHA = feedstockSeriesId('Naphtha', 'japan');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'polyindex-prices-'));
  store = await openStore({ url: sqliteUrlFor(dir) });
  await store.upsertSeries(allSeries);
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const rowsFor = (seriesId: string, from: string, count: number, value = (i: number) => 500 + i): PointRow[] =>
  Array.from({ length: count }, (_, i) => {
    const d = new Date(`${from}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + i);
    return { seriesId, date: d.toISOString().slice(0, 10), value: value(i) };
  });

describe('series', () => {
  it('stores every catalog series and updates a definition in place', async () => {
    expect((await store.listSeries()).map((s) => s.id)).toEqual(allSeries.map((s) => s.id).toSorted());
    const fx = allSeries.find((s) => s.id === FX_SERIES_ID)!;
    await store.upsertSeries([{ ...fx, label: 'Renamed' }]);
    expect((await store.getSeries(FX_SERIES_ID))?.label).toBe('Renamed');
    await store.upsertSeries([fx]);
    expect(await store.getSeries('no.such.series')).toBeNull();
  });
});

describe('points', () => {
  it('upserts idempotently by (series, date): a repeat changes nothing, a new value replaces', async () => {
    const rows = rowsFor(NAPHTHA, '2020-01-01', 1000);
    expect(await store.upsertPoints(rows)).toBe(1000);
    expect(await store.upsertPoints(rows)).toBe(1000);
    expect((await store.extent(NAPHTHA))?.count).toBe(1000);
    await store.upsertPoints([{ seriesId: NAPHTHA, date: '2020-01-01', value: 999 }]);
    expect((await store.points(NAPHTHA, { from: '2020-01-01', to: '2020-01-01' }))).toEqual([{ date: '2020-01-01', value: 999 }]);
    expect((await store.extent(NAPHTHA))?.count).toBe(1000);
  });

  it('writes all rows or none: a bad row late in a big batch leaves nothing half-written', async () => {
    const series = feedstockSeriesId('Propylene', 'korea');
    const rows = rowsFor(series, '2021-01-01', 1200);
    rows[1100] = { seriesId: series, date: 'not-a-date', value: 1 }; // fails the CHECK in the third chunk
    await expect(store.upsertPoints(rows)).rejects.toThrow();
    expect(await store.extent(series)).toBeNull();
  });

  it('refuses non-finite values before writing', async () => {
    const series = feedstockSeriesId('Ethylene', 'nea');
    await expect(store.upsertPoints([{ seriesId: series, date: '2021-01-01', value: Number.NaN }])).rejects.toThrow(RangeError);
    expect(await store.extent(series)).toBeNull();
  });

  it('reads one range ascending, the newest points, and the extent', async () => {
    const range = await store.points(NAPHTHA, { from: '2020-02-01', to: '2020-02-29' });
    expect(range).toHaveLength(29);
    expect(range[0]!.date).toBe('2020-02-01');
    expect(range.at(-1)!.date).toBe('2020-02-29');
    expect((await store.points(NAPHTHA, { from: '2020-02-10' }))[0]!.date).toBe('2020-02-10');
    expect(await store.latestPoints(NAPHTHA, 2)).toEqual([
      { date: '2022-09-25', value: 1498 },
      { date: '2022-09-26', value: 1499 },
    ]);
    expect(await store.extent(NAPHTHA)).toEqual({ first: '2020-01-01', last: '2022-09-26', count: 1000 });
    expect(await store.points('no.such.series')).toEqual([]);
  });

  it('answers a chart read from the primary-key index', async () => {
    // The adapter's range query, explained by SQLite: a search on the primary key, no scan, no sort.
    const { createClient } = await import('@libsql/client');
    const client = createClient({ url: sqliteUrlFor(dir) });
    const plan = await client.execute({
      sql: 'EXPLAIN QUERY PLAN SELECT date, value FROM price_points WHERE series_id = ? AND date >= ? AND date <= ? ORDER BY date',
      args: [NAPHTHA, '2020-01-01', '2020-12-31'],
    });
    const detail = plan.rows.map((r) => String(r['detail'])).join(' | ');
    client.close();
    expect(detail).toMatch(/SEARCH price_points USING PRIMARY KEY/);
    expect(detail).not.toMatch(/TEMP B-TREE/);
  });
});

describe('city sheets, offers, banners', () => {
  it('returns each city’s newest sheet', async () => {
    await store.upsertCityPrices([
      { city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', price: 100, date: '2025-01-06' },
      { city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', price: 101, date: '2025-01-13' },
      { city: 'mumbai', polymerType: 'PP', grade: 'ppFilm', price: 103, date: '2025-01-13' },
      { city: 'pune', polymerType: 'PP', grade: 'ppRaffia', price: 102, date: '2025-01-06' },
    ]);
    await store.upsertCityPrices([{ city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', price: 101.5, date: '2025-01-13' }]);
    expect((await store.latestCitySheet('mumbai')).map((r) => [r.grade, r.price, r.date])).toEqual([
      ['ppFilm', 103, '2025-01-13'],
      ['ppRaffia', 101.5, '2025-01-13'],
    ]);
    expect((await store.latestCitySheets()).map((r) => `${r.city}:${r.grade}:${r.date}`)).toEqual([
      'mumbai:ppFilm:2025-01-13',
      'mumbai:ppRaffia:2025-01-13',
      'pune:ppRaffia:2025-01-06',
    ]);
    expect(await store.latestCitySheet('nowhere')).toEqual([]);
  });

  it('keeps offers per country and date, read by month', async () => {
    await store.upsertOffers([
      { country: 'USA', date: '2025-03-03', data: { PP: { Raffia: 1000 } } },
      { country: 'USA', date: '2025-03-17', data: { PP: { Raffia: 1010 } } },
      { country: 'USA', date: '2025-04-01', data: { PP: { Raffia: 1020 } } },
    ]);
    await store.upsertOffers([{ country: 'USA', date: '2025-03-17', data: { PP: { Raffia: 1015 } } }]);
    expect(await store.offersInMonth('USA', 2025, 3)).toEqual([
      { country: 'USA', date: '2025-03-03', data: { PP: { Raffia: 1000 } } },
      { country: 'USA', date: '2025-03-17', data: { PP: { Raffia: 1015 } } },
    ]);
    expect(await store.latestOfferMonth('USA')).toEqual({ year: 2025, month: 4 });
    expect(await store.latestOfferMonth('Nepal')).toBeNull();
  });

  it('replaces the banner list as a whole', async () => {
    const banner = { id: 'a', title: 'A', subtitle: 's', href: '/crude', image: '/banners/a.svg', alt: 'alt a', order: 2 };
    await store.replaceBanners([banner, { ...banner, id: 'b', order: 1 }]);
    expect((await store.listBanners()).map((b) => b.id)).toEqual(['b', 'a']);
    await store.replaceBanners([banner]);
    expect((await store.listBanners()).map((b) => b.id)).toEqual(['a']);
  });
});

describe('demo seed', () => {
  it('fills an empty store quickly, and seeding again changes nothing', async () => {
    const seedDir = mkdtempSync(join(tmpdir(), 'polyindex-seed-'));
    const seeded = await openStore({ url: sqliteUrlFor(seedDir) });
    try {
      expect(await seeded.hasNoPrices()).toBe(true);
      const started = performance.now();
      const first = await seedDemoPrices(seeded, '2026-11-22');
      expect(performance.now() - started).toBeLessThan(15_000);
      expect(await seeded.hasNoPrices()).toBe(false);
      const before = await seeded.extent(FX_SERIES_ID);
      const second = await seedDemoPrices(seeded, '2026-11-22');
      expect(second).toEqual(first);
      expect(await seeded.extent(FX_SERIES_ID)).toEqual(before);
      expect((await seeded.latestCitySheet('ahmedabad')).length).toBeGreaterThan(10);
    } finally {
      await seeded.close();
      rmSync(seedDir, { recursive: true, force: true });
    }
  });
});
