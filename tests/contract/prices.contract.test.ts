/** The PriceStore contract: series, points, city sheets, offers, banners, the seed cue and the cache version. */
import { describe, expect, it } from 'vitest';
import { allSeries, feedstockSeriesId, FX_SERIES_ID } from '../../src/lib/seriesCatalog.ts';
import type { Store } from '../../src/server/store/index.ts';
import type { Banner, CityPriceRow, PointRow } from '../../src/server/store/prices.ts';
import { summarize } from '../../src/server/store/checksum.ts';
import { seedDemoPrices } from '../../src/server/store/seedDemo.ts';
import { attempt, backends, storePerTest, withTwins, twinTest } from './backends.ts';

const NAPHTHA = feedstockSeriesId('Naphtha', 'japan');
const PROPYLENE = feedstockSeriesId('Propylene', 'korea');
const ETHYLENE = feedstockSeriesId('Ethylene', 'nea');

const rowsFor = (seriesId: string, from: string, count: number, value = (i: number) => 500 + i): PointRow[] =>
  Array.from({ length: count }, (_, i) => {
    const d = new Date(`${from}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + i);
    return { seriesId, date: d.toISOString().slice(0, 10), value: value(i) };
  });

const city = (c: string, grade: string, price: number, date: string, polymerType = 'PP'): CityPriceRow => ({ city: c, polymerType, grade, price, date });
const banner = (id: string, order: number, extra: Partial<Banner> = {}): Banner => ({
  id, title: `Title ${id}`, subtitle: `Sub ${id}`, href: `/${id}`, image: `/banners/${id}.svg`, alt: `alt ${id}`, order, ...extra,
});

/** What a point write must not have touched: every series' points and extent. */
const snapshot = async (store: Store, ids: readonly string[]) =>
  Promise.all(ids.map(async (id) => ({ id, points: await store.points(id), extent: await store.extent(id) })));

describe.each(backends)('price store on $name', (backend) => {
  const store = storePerTest(backend);
  const withCatalog = async () => store().upsertSeries(allSeries);

  describe('series', () => {
    it('stores every catalog series, sorted by id, and updates a definition in place', async () => {
      expect(await store().listSeries()).toEqual([]);
      await withCatalog();
      expect(await store().listSeries()).toEqual(allSeries.toSorted((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
      const fx = allSeries.find((s) => s.id === FX_SERIES_ID)!;
      expect(await store().getSeries(FX_SERIES_ID)).toEqual(fx);
      await store().upsertSeries([{ ...fx, label: 'Renamed' }]);
      expect(await store().getSeries(FX_SERIES_ID)).toEqual({ ...fx, label: 'Renamed' });
      expect((await store().listSeries()).length).toBe(allSeries.length);
      await store().upsertSeries([fx]);
      expect(await store().getSeries(FX_SERIES_ID)).toEqual(fx);
      expect(await store().getSeries('no.such.series')).toBeNull();
      await store().upsertSeries([]);
      expect((await store().listSeries()).length).toBe(allSeries.length);
    });

    it('an update of definitions leaves the points alone', async () => {
      await withCatalog();
      await store().upsertPoints(rowsFor(NAPHTHA, '2024-12-30', 5));
      const before = await snapshot(store(), [NAPHTHA]);
      await store().upsertSeries(allSeries.map((s) => ({ ...s, label: `${s.label} (new)` })));
      expect(await snapshot(store(), [NAPHTHA])).toEqual(before);
      expect(await store().latestPoints(NAPHTHA, 1)).toEqual([{ date: '2025-01-03', value: 504 }]);
      expect(await store().hasNoPrices()).toBe(false);
      expect((await store().getSeries(NAPHTHA))?.label).toMatch(/ \(new\)$/);
    });
  });

  describe('points', () => {
    it('upserts idempotently by (series, date): a repeat changes nothing, a new value replaces', async () => {
      await withCatalog();
      const rows = rowsFor(NAPHTHA, '2020-01-01', 1000);
      expect(await store().upsertPoints(rows)).toBe(1000);
      expect(await store().upsertPoints(rows)).toBe(1000);
      expect(await store().extent(NAPHTHA)).toEqual({ first: '2020-01-01', last: '2022-09-26', count: 1000 });
      expect(await store().upsertPoints([{ seriesId: NAPHTHA, date: '2020-01-01', value: 999.25 }])).toBe(1);
      expect(await store().points(NAPHTHA, { from: '2020-01-01', to: '2020-01-01' })).toEqual([{ date: '2020-01-01', value: 999.25 }]);
      expect((await store().extent(NAPHTHA))?.count).toBe(1000);
      expect(await store().points(NAPHTHA)).toEqual([{ date: '2020-01-01', value: 999.25 }, ...rows.slice(1).map(({ date, value }) => ({ date, value }))]);
      expect(await store().upsertPoints([])).toBe(0);
    });

    it('reads one range ascending, with either end open, the newest points, and the extent', async () => {
      await withCatalog();
      await store().upsertPoints(rowsFor(NAPHTHA, '2020-01-01', 1000));
      const range = await store().points(NAPHTHA, { from: '2020-02-01', to: '2020-02-29' });
      expect(range).toHaveLength(29);
      expect(range[0]).toEqual({ date: '2020-02-01', value: 531 });
      expect(range.at(-1)).toEqual({ date: '2020-02-29', value: 559 });
      const from = await store().points(NAPHTHA, { from: '2022-09-20' });
      expect(from.map((p) => p.date)).toEqual(['2022-09-20', '2022-09-21', '2022-09-22', '2022-09-23', '2022-09-24', '2022-09-25', '2022-09-26']);
      const to = await store().points(NAPHTHA, { to: '2020-01-03' });
      expect(to).toEqual([{ date: '2020-01-01', value: 500 }, { date: '2020-01-02', value: 501 }, { date: '2020-01-03', value: 502 }]);
      expect(await store().points(NAPHTHA, { from: undefined, to: undefined })).toHaveLength(1000);
      // A range across year ends, ascending.
      const years = await store().points(NAPHTHA, { from: '2020-12-30', to: '2021-01-02' });
      expect(years.map((p) => p.date)).toEqual(['2020-12-30', '2020-12-31', '2021-01-01', '2021-01-02']);
      expect(await store().points(NAPHTHA, { from: '2023-01-01' })).toEqual([]);
      expect(await store().points(NAPHTHA, { from: '2021-02-01', to: '2021-01-01' })).toEqual([]);
      expect(await store().latestPoints(NAPHTHA, 2)).toEqual([
        { date: '2022-09-25', value: 1498 },
        { date: '2022-09-26', value: 1499 },
      ]);
      expect(await store().latestPoints(NAPHTHA, 0)).toEqual([]);
      expect(await store().latestPoints(NAPHTHA, 5000)).toHaveLength(1000);
      expect(await store().extent(NAPHTHA)).toEqual({ first: '2020-01-01', last: '2022-09-26', count: 1000 });
      expect(await store().points('no.such.series')).toEqual([]);
      expect(await store().latestPoints('no.such.series', 3)).toEqual([]);
      expect(await store().extent('no.such.series')).toBeNull();
      expect(await store().extent(PROPYLENE)).toBeNull();
    });

    it('counts a batch of new and replaced points right, stores zero and negative values, and floors the count asked', async () => {
      await withCatalog();
      await store().upsertPoints(rowsFor(NAPHTHA, '2020-12-20', 20)); // 2020-12-20 … 2021-01-08
      const mixed = [...rowsFor(NAPHTHA, '2020-12-30', 10, () => 0), ...rowsFor(NAPHTHA, '2021-01-09', 5, (i) => -i - 1)];
      expect(await store().upsertPoints(mixed)).toBe(15);
      expect(await store().extent(NAPHTHA)).toEqual({ first: '2020-12-20', last: '2021-01-13', count: 25 });
      expect(await store().points(NAPHTHA, { from: '2021-01-07', to: '2021-01-10' })).toEqual([
        { date: '2021-01-07', value: 0 },
        { date: '2021-01-08', value: 0 },
        { date: '2021-01-09', value: -1 },
        { date: '2021-01-10', value: -2 },
      ]);
      expect(await store().latestPoints(NAPHTHA, 2.7)).toEqual([{ date: '2021-01-12', value: -4 }, { date: '2021-01-13', value: -5 }]);
      expect(await store().latestPoints(NAPHTHA, -1)).toEqual([]);
    });

    it('concurrent writes of one series on one handle all land', async () => {
      await withCatalog();
      await Promise.all([
        store().upsertPoints(rowsFor(NAPHTHA, '2021-01-01', 30)),
        store().upsertPoints(rowsFor(NAPHTHA, '2021-02-01', 30)),
        store().upsertPoints(rowsFor(NAPHTHA, '2020-12-01', 10)),
      ]);
      expect(await store().extent(NAPHTHA)).toEqual({ first: '2020-12-01', last: '2021-03-02', count: 70 });
      expect(await store().points(NAPHTHA)).toHaveLength(70);
    });

    // Two processes writing one series' points at once: each transaction must see the other's
    // write. Holds only where transactions are isolated across processes (docs/data.md,
    // "Firestore layout": the offline stand-in does not isolate them).
    twinTest(backend, { isolated: true })('concurrent writes of one series from two processes all land', async () => {
      await withTwins(backend, async (a, b) => {
        await a.upsertSeries(allSeries);
        await Promise.all([a.upsertPoints(rowsFor(NAPHTHA, '2021-01-01', 30)), b.upsertPoints(rowsFor(NAPHTHA, '2021-02-01', 30))]);
        expect(await b.extent(NAPHTHA)).toEqual({ first: '2021-01-01', last: '2021-03-02', count: 60 });
        expect(await a.points(NAPHTHA)).toHaveLength(60);
      });
    });

    it('gives the newest points across a year boundary, and sparse points across years', async () => {
      await withCatalog();
      await store().upsertPoints([
        ...rowsFor(PROPYLENE, '2021-12-29', 6), // 2021-12-29 … 2022-01-03
        { seriesId: PROPYLENE, date: '2019-06-30', value: 1 },
        { seriesId: PROPYLENE, date: '2017-03-15', value: 2 },
      ]);
      expect(await store().latestPoints(PROPYLENE, 4)).toEqual([
        { date: '2021-12-31', value: 502 },
        { date: '2022-01-01', value: 503 },
        { date: '2022-01-02', value: 504 },
        { date: '2022-01-03', value: 505 },
      ]);
      expect((await store().latestPoints(PROPYLENE, 8)).map((p) => p.date)).toEqual([
        '2017-03-15', '2019-06-30', '2021-12-29', '2021-12-30', '2021-12-31', '2022-01-01', '2022-01-02', '2022-01-03',
      ]);
      expect(await store().extent(PROPYLENE)).toEqual({ first: '2017-03-15', last: '2022-01-03', count: 8 });
      expect((await store().points(PROPYLENE, { from: '2018-01-01', to: '2021-12-29' })).map((p) => p.date)).toEqual(['2019-06-30', '2021-12-29']);
      // Another series' points stay apart.
      await store().upsertPoints([{ seriesId: ETHYLENE, date: '2023-01-01', value: 9 }]);
      expect((await store().latestPoints(PROPYLENE, 1))).toEqual([{ date: '2022-01-03', value: 505 }]);
    });

    it('writes all rows or none: a malformed date late in a big batch leaves nothing written or changed', async () => {
      await withCatalog();
      await store().upsertPoints([{ seriesId: PROPYLENE, date: '2021-01-05', value: 1 }]);
      const before = await snapshot(store(), [PROPYLENE]);
      const rows = rowsFor(PROPYLENE, '2021-01-01', 1200);
      rows[1100] = { seriesId: PROPYLENE, date: 'not-a-date', value: 1 }; // in the third chunk of 400
      await expect(store().upsertPoints(rows)).rejects.toThrow();
      expect(await snapshot(store(), [PROPYLENE])).toEqual(before);
    });

    it.each(['2021-1-05', '2021/01/05', '21-01-05', '', '2021-01-05T00:00:00Z'])('refuses the malformed date %j, writing nothing', async (date) => {
      await withCatalog();
      const rows = [...rowsFor(ETHYLENE, '2021-01-01', 3), { seriesId: ETHYLENE, date, value: 7 }];
      await expect(attempt(() => store().upsertPoints(rows))).rejects.toThrow();
      expect(await store().extent(ETHYLENE)).toBeNull();
      expect(await store().hasNoPrices()).toBe(true);
    });

    it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('refuses the value %s before writing anything', async (value) => {
      await withCatalog();
      await store().upsertPoints([{ seriesId: ETHYLENE, date: '2020-12-31', value: 5 }]);
      const rows = [...rowsFor(ETHYLENE, '2021-01-01', 3), { seriesId: ETHYLENE, date: '2021-01-04', value }, ...rowsFor(NAPHTHA, '2021-01-01', 2)];
      await expect(attempt(() => store().upsertPoints(rows))).rejects.toThrow(RangeError);
      expect(await store().points(ETHYLENE)).toEqual([{ date: '2020-12-31', value: 5 }]);
      expect(await store().extent(NAPHTHA)).toBeNull();
    });

    it('refuses points of a series it does not know, writing nothing', async () => {
      await withCatalog();
      const rows = [...rowsFor(NAPHTHA, '2021-01-01', 3), { seriesId: 'no.such.series', date: '2021-01-02', value: 1 }];
      await expect(attempt(() => store().upsertPoints(rows))).rejects.toThrow();
      expect(await store().extent(NAPHTHA)).toBeNull();
      expect(await store().points('no.such.series')).toEqual([]);
      expect(await store().hasNoPrices()).toBe(true);
    });

    it('follows deletes in the extent and the newest points', async () => {
      await withCatalog();
      await store().upsertPoints(rowsFor(NAPHTHA, '2024-12-30', 4)); // 2024-12-30 … 2025-01-02
      const actor = { uid: 'adm', email: 'adm@example.test' };
      const now = new Date('2026-11-22T00:00:00Z');
      expect((await store().adminDeletePoint({ seriesId: NAPHTHA, date: '2025-01-02', expected: 503, actor, now })).kind).toBe('written');
      expect((await store().adminDeletePoint({ seriesId: NAPHTHA, date: '2024-12-30', expected: 500, actor, now })).kind).toBe('written');
      expect(await store().extent(NAPHTHA)).toEqual({ first: '2024-12-31', last: '2025-01-01', count: 2 });
      expect(await store().latestPoints(NAPHTHA, 5)).toEqual([{ date: '2024-12-31', value: 501 }, { date: '2025-01-01', value: 502 }]);
      await store().adminDeletePoint({ seriesId: NAPHTHA, date: '2024-12-31', expected: 501, actor, now });
      await store().adminDeletePoint({ seriesId: NAPHTHA, date: '2025-01-01', expected: 502, actor, now });
      expect(await store().extent(NAPHTHA)).toBeNull();
      expect(await store().points(NAPHTHA)).toEqual([]);
    });

    it('says whether any point is stored, and changes its version on every write', async () => {
      expect(await store().hasNoPrices()).toBe(true);
      await withCatalog();
      expect(await store().hasNoPrices()).toBe(true);
      const versions = [store().version()];
      const changed = async (write: Promise<unknown>) => {
        await write;
        const v = store().version();
        expect(versions).not.toContain(v);
        versions.push(v);
      };
      await changed(store().upsertPoints([{ seriesId: FX_SERIES_ID, date: '2025-01-01', value: 85.5 }]));
      expect(await store().hasNoPrices()).toBe(false);
      await changed(store().upsertCityPrices([city('mumbai', 'ppRaffia', 100, '2025-01-06')]));
      await changed(store().upsertOffers([{ country: 'USA', date: '2025-01-06', data: { PP: { Raffia: 1 } } }]));
      await changed(store().replaceBanners([banner('a', 1)]));
      await changed(store().upsertSeries([allSeries[0]!]));
      const actor = { uid: 'adm', email: null };
      const now = new Date('2026-11-22T00:00:00Z');
      await changed(store().adminSetPoint({ seriesId: FX_SERIES_ID, date: '2025-01-02', value: 86, expected: null, actor, now }));
      await changed(store().adminDeletePoint({ seriesId: FX_SERIES_ID, date: '2025-01-02', expected: 86, actor, now }));
      await changed(store().adminImportPoints({ rows: [{ series: FX_SERIES_ID, date: '2025-01-03', value: 87 }], actor, now, dryRun: false }));
      await changed(store().adminSetCityPrice({ city: 'pune', date: '2025-01-06', polymerType: 'PP', grade: 'ppRaffia', price: 99, expected: null, actor, now }));
      await changed(store().adminSetOffers({ country: 'USA', date: '2025-01-07', data: { PP: { Raffia: 2 } }, actor, now }));
      await changed(store().adminAddBanner({ banner: { id: 'b', title: 'B', subtitle: '', href: '/b', image: '/b.svg', alt: 'b' }, actor, now }));
      await changed(store().adminMoveBanner({ id: 'b', direction: 'up', actor, now }));
      await changed(store().adminRemoveBanner({ id: 'b', actor, now }));
      await store().adminDeletePoint({ seriesId: FX_SERIES_ID, date: '2025-01-01', expected: 85.5, actor, now });
      await store().adminDeletePoint({ seriesId: FX_SERIES_ID, date: '2025-01-03', expected: 87, actor, now });
      expect(await store().hasNoPrices()).toBe(true);
    });
  });

  describe('city sheets', () => {
    it('returns each city’s newest sheet, sorted by polymer and grade, idempotent by (city, grade, date)', async () => {
      expect(await store().upsertCityPrices([
        city('mumbai', 'ppRaffia', 100, '2025-01-06'),
        city('mumbai', 'ppRaffia', 101, '2025-01-13'),
        city('mumbai', 'ppFilm', 103, '2025-01-13'),
        city('mumbai', 'hdFilm', 95.5, '2025-01-13', 'HDPE'),
        city('pune', 'ppRaffia', 102, '2025-01-06'),
        city('delhi', 'ppRaffia', 104, '2024-12-30'),
      ])).toBe(6);
      expect(await store().upsertCityPrices([city('mumbai', 'ppRaffia', 101.5, '2025-01-13')])).toBe(1);
      expect(await store().latestCitySheet('mumbai')).toEqual([
        city('mumbai', 'hdFilm', 95.5, '2025-01-13', 'HDPE'),
        city('mumbai', 'ppFilm', 103, '2025-01-13'),
        city('mumbai', 'ppRaffia', 101.5, '2025-01-13'),
      ]);
      expect(await store().latestCitySheets()).toEqual([
        city('delhi', 'ppRaffia', 104, '2024-12-30'),
        city('mumbai', 'hdFilm', 95.5, '2025-01-13', 'HDPE'),
        city('mumbai', 'ppFilm', 103, '2025-01-13'),
        city('mumbai', 'ppRaffia', 101.5, '2025-01-13'),
        city('pune', 'ppRaffia', 102, '2025-01-06'),
      ]);
      expect(await store().latestCitySheet('nowhere')).toEqual([]);
      expect(await store().upsertCityPrices([])).toBe(0);
    });

    it.each([Number.NaN, Number.POSITIVE_INFINITY])('refuses a batch with the price %s, writing nothing', async (price) => {
      await store().upsertCityPrices([city('mumbai', 'ppRaffia', 100, '2025-01-06')]);
      const rows = [
        ...Array.from({ length: 450 }, (_, i) => city(`city-${i}`, 'ppRaffia', 100 + i, '2025-01-13')),
        city('mumbai', 'ppRaffia', 120, '2025-01-06'),
        city('mumbai', 'ppFilm', price, '2025-01-13'),
      ];
      await expect(attempt(() => store().upsertCityPrices(rows))).rejects.toThrow();
      expect(await store().latestCitySheets()).toEqual([city('mumbai', 'ppRaffia', 100, '2025-01-06')]);
    });

    it('keeps the newest sheet when an older date is written later', async () => {
      await store().upsertCityPrices([city('mumbai', 'ppRaffia', 101, '2025-01-13')]);
      await store().upsertCityPrices([city('mumbai', 'ppRaffia', 99, '2025-01-06'), city('mumbai', 'ppFilm', 98, '2025-01-06')]);
      expect(await store().latestCitySheet('mumbai')).toEqual([city('mumbai', 'ppRaffia', 101, '2025-01-13')]);
      expect(await store().latestCitySheets()).toEqual([city('mumbai', 'ppRaffia', 101, '2025-01-13')]);
      await store().adminSetCityPrice({
        city: 'mumbai', date: '2025-01-06', polymerType: 'PP', grade: 'ppRaffia', price: 97, expected: 99,
        actor: { uid: 'adm', email: null }, now: new Date('2026-11-22T00:00:00Z'),
      });
      expect(await store().latestCitySheet('mumbai')).toEqual([city('mumbai', 'ppRaffia', 101, '2025-01-13')]);
      expect(await store().citySheetOn('mumbai', '2025-01-06')).toEqual([city('mumbai', 'ppFilm', 98, '2025-01-06'), city('mumbai', 'ppRaffia', 97, '2025-01-06')]);
      // A new row on the newest date joins the newest sheet.
      await store().upsertCityPrices([city('mumbai', 'ppFilm', 100, '2025-01-13')]);
      expect(await store().latestCitySheet('mumbai')).toEqual([city('mumbai', 'ppFilm', 100, '2025-01-13'), city('mumbai', 'ppRaffia', 101, '2025-01-13')]);
    });

    it('concurrent writes of city rows on one handle all land', async () => {
      await Promise.all([
        store().upsertCityPrices([city('mumbai', 'ppRaffia', 1, '2025-01-13')]),
        store().upsertCityPrices([city('mumbai', 'ppFilm', 2, '2025-01-13')]),
        store().upsertCityPrices([city('pune', 'ppFilm', 3, '2025-01-13')]),
      ]);
      expect(await store().latestCitySheets()).toEqual([city('mumbai', 'ppFilm', 2, '2025-01-13'), city('mumbai', 'ppRaffia', 1, '2025-01-13'), city('pune', 'ppFilm', 3, '2025-01-13')]);
    });

    twinTest(backend, { isolated: true })('concurrent writes of one city’s sheet from two processes all land', async () => {
      await withTwins(backend, async (a, b) => {
        await Promise.all([a.upsertCityPrices([city('mumbai', 'ppRaffia', 1, '2025-01-13')]), b.upsertCityPrices([city('mumbai', 'ppFilm', 2, '2025-01-13')])]);
        expect(await b.latestCitySheet('mumbai')).toEqual([city('mumbai', 'ppFilm', 2, '2025-01-13'), city('mumbai', 'ppRaffia', 1, '2025-01-13')]);
      });
    });

    it('refuses a batch with a malformed date, writing nothing', async () => {
      await store().upsertCityPrices([city('mumbai', 'ppRaffia', 100, '2025-01-06')]);
      const rows = [city('mumbai', 'ppRaffia', 120, '2025-01-06'), city('pune', 'ppRaffia', 1, '2025-1-13'), city('delhi', 'ppRaffia', 2, '2025-01-13')];
      await expect(attempt(() => store().upsertCityPrices(rows))).rejects.toThrow();
      expect(await store().latestCitySheets()).toEqual([city('mumbai', 'ppRaffia', 100, '2025-01-06')]);
    });

    it('lists a city’s sheet dates in a range, and one grade across cities over time (city-wise history)', async () => {
      await store().upsertCityPrices([
        city('mumbai', 'ppRaffia', 100, '2025-01-06'),
        city('mumbai', 'ppFilm', 99, '2025-01-06'),
        city('mumbai', 'ppRaffia', 101, '2025-01-13'),
        city('mumbai', 'ppRaffia', 104, '2025-02-03'),
        city('pune', 'ppRaffia', 102, '2025-01-06'),
        city('pune', 'ppFilm', 97, '2025-01-13'),
        city('delhi', 'ppRaffia', 105, '2025-01-13'),
      ]);
      expect(await store().citySheetDates('mumbai', {})).toEqual(['2025-01-06', '2025-01-13', '2025-02-03']);
      expect(await store().citySheetDates('mumbai', { from: '2025-01-01', to: '2025-01-31' })).toEqual(['2025-01-06', '2025-01-13']);
      expect(await store().citySheetDates('mumbai', { from: '2025-01-13', to: '2025-01-13' })).toEqual(['2025-01-13']);
      expect(await store().citySheetDates('mumbai', { from: '2025-03-01', to: '2025-03-31' })).toEqual([]);
      expect(await store().citySheetDates('nowhere', {})).toEqual([]);
      expect(await store().citySheetDates('a/b', {})).toEqual([]);

      expect(await store().cityGradeHistory('ppRaffia', ['pune', 'mumbai'], { from: '2025-01-01', to: '2025-01-31' })).toEqual([
        city('mumbai', 'ppRaffia', 100, '2025-01-06'),
        city('pune', 'ppRaffia', 102, '2025-01-06'),
        city('mumbai', 'ppRaffia', 101, '2025-01-13'),
      ]);
      expect(await store().cityGradeHistory('ppFilm', ['pune'], {})).toEqual([city('pune', 'ppFilm', 97, '2025-01-13')]);
      expect(await store().cityGradeHistory('ppRaffia', [], {})).toEqual([]);
      expect(await store().cityGradeHistory('noGrade', ['mumbai'], {})).toEqual([]);
    });

    it('reads one city’s sheet of any date', async () => {
      await store().upsertCityPrices([
        city('mumbai', 'ppRaffia', 100, '2025-01-06'),
        city('mumbai', 'ppFilm', 99, '2025-01-06'),
        city('mumbai', 'ppRaffia', 101, '2025-01-13'),
        city('pune', 'ppRaffia', 102, '2025-01-06'),
      ]);
      expect(await store().citySheetOn('mumbai', '2025-01-06')).toEqual([city('mumbai', 'ppFilm', 99, '2025-01-06'), city('mumbai', 'ppRaffia', 100, '2025-01-06')]);
      expect(await store().citySheetOn('mumbai', '2025-01-13')).toEqual([city('mumbai', 'ppRaffia', 101, '2025-01-13')]);
      expect(await store().citySheetOn('mumbai', '2025-01-07')).toEqual([]);
      expect(await store().citySheetOn('nowhere', '2025-01-06')).toEqual([]);
      // A row's polymer type follows its latest write.
      await store().upsertCityPrices([city('mumbai', 'ppFilm', 98, '2025-01-06', 'BOPP')]);
      expect(await store().citySheetOn('mumbai', '2025-01-06')).toEqual([city('mumbai', 'ppFilm', 98, '2025-01-06', 'BOPP'), city('mumbai', 'ppRaffia', 100, '2025-01-06')]);
      expect(await store().latestCitySheets()).toEqual([city('mumbai', 'ppRaffia', 101, '2025-01-13'), city('pune', 'ppRaffia', 102, '2025-01-06')]);
    });

    it('follows an admin removal of the newest sheet’s last row back to the previous sheet', async () => {
      await store().upsertCityPrices([city('surat', 'ppRaffia', 100, '2025-01-06'), city('surat', 'ppRaffia', 101, '2025-01-13')]);
      const r = await store().adminSetCityPrice({
        city: 'surat', date: '2025-01-13', polymerType: 'PP', grade: 'ppRaffia', price: null, expected: 101,
        actor: { uid: 'adm', email: null }, now: new Date('2026-11-22T00:00:00Z'),
      });
      expect(r.kind).toBe('written');
      expect(await store().latestCitySheet('surat')).toEqual([city('surat', 'ppRaffia', 100, '2025-01-06')]);
      expect(await store().latestCitySheets()).toEqual([city('surat', 'ppRaffia', 100, '2025-01-06')]);
      expect(await store().citySheetOn('surat', '2025-01-13')).toEqual([]);
    });
  });

  describe('offers', () => {
    it('keeps offers per country and date, read by month', async () => {
      expect(await store().upsertOffers([
        { country: 'USA', date: '2025-03-03', data: { PP: { Raffia: 1000 } } },
        { country: 'USA', date: '2025-03-17', data: { PP: { Raffia: 1010 } } },
        { country: 'USA', date: '2025-03-31', data: { PP: { Raffia: 1012 } } },
        { country: 'USA', date: '2025-04-01', data: { PP: { Raffia: 1020 } } },
        { country: 'USA', date: '2025-02-28', data: { PP: { Raffia: 990 } } },
        { country: 'Japan', date: '2025-03-10', data: { PE: { Film: 1100 } } },
      ])).toBe(6);
      expect(await store().upsertOffers([{ country: 'USA', date: '2025-03-17', data: { PP: { Raffia: 1015 } } }])).toBe(1);
      expect(await store().offersInMonth('USA', 2025, 3)).toEqual([
        { country: 'USA', date: '2025-03-03', data: { PP: { Raffia: 1000 } } },
        { country: 'USA', date: '2025-03-17', data: { PP: { Raffia: 1015 } } },
        { country: 'USA', date: '2025-03-31', data: { PP: { Raffia: 1012 } } },
      ]);
      expect(await store().offersInMonth('Japan', 2025, 3)).toEqual([{ country: 'Japan', date: '2025-03-10', data: { PE: { Film: 1100 } } }]);
      expect(await store().offersInMonth('USA', 2025, 5)).toEqual([]);
      expect(await store().offersInMonth('Nepal', 2025, 3)).toEqual([]);
      expect(await store().latestOfferMonth('USA')).toEqual({ year: 2025, month: 4 });
      expect(await store().latestOfferMonth('Japan')).toEqual({ year: 2025, month: 3 });
      expect(await store().latestOfferMonth('Nepal')).toBeNull();
      expect(await store().upsertOffers([])).toBe(0);
    });

    it('finds the latest month across a year boundary', async () => {
      await store().upsertOffers([
        { country: 'Korea', date: '2024-12-30', data: { PP: { Raffia: 1 } } },
        { country: 'Korea', date: '2025-01-06', data: { PP: { Raffia: 2 } } },
        { country: 'Korea', date: '2023-11-06', data: { PP: { Raffia: 3 } } },
      ]);
      expect(await store().latestOfferMonth('Korea')).toEqual({ year: 2025, month: 1 });
      expect(await store().offersInMonth('Korea', 2024, 12)).toEqual([{ country: 'Korea', date: '2024-12-30', data: { PP: { Raffia: 1 } } }]);
      expect(await store().offersInMonth('Korea', 2025, 1)).toEqual([{ country: 'Korea', date: '2025-01-06', data: { PP: { Raffia: 2 } } }]);
    });

    it('keeps the newest month when an older offer is written later, and concurrent writes on one handle all land', async () => {
      await store().upsertOffers([{ country: 'USA', date: '2025-04-07', data: { PP: { Raffia: 3 } } }]);
      await store().upsertOffers([{ country: 'USA', date: '2025-02-03', data: { PP: { Raffia: 1 } } }]);
      expect(await store().latestOfferMonth('USA')).toEqual({ year: 2025, month: 4 });
      await Promise.all([
        store().upsertOffers([{ country: 'USA', date: '2025-02-10', data: { PP: { Raffia: 2 } } }]),
        store().upsertOffers([{ country: 'USA', date: '2025-02-17', data: { PP: { Raffia: 4 } } }]),
      ]);
      expect((await store().offersInMonth('USA', 2025, 2)).map((o) => o.date)).toEqual(['2025-02-03', '2025-02-10', '2025-02-17']);
    });

    it.each([
      ['a malformed date', { country: 'USA', date: '2025/03/10', data: { PP: { Raffia: 1 } } }],
      ['a non-finite value', { country: 'USA', date: '2025-03-10', data: { PP: { Raffia: Number.NaN } } }],
    ])('refuses a batch with %s, writing nothing', async (_what, bad) => {
      await store().upsertOffers([{ country: 'USA', date: '2025-03-03', data: { PP: { Raffia: 1000 } } }]);
      const offers = [{ country: 'USA', date: '2025-03-03', data: { PP: { Raffia: 5 } } }, { country: 'Japan', date: '2025-03-03', data: { PP: { Raffia: 6 } } }, bad];
      await expect(attempt(() => store().upsertOffers(offers))).rejects.toThrow();
      expect(await store().offersInMonth('USA', 2025, 3)).toEqual([{ country: 'USA', date: '2025-03-03', data: { PP: { Raffia: 1000 } } }]);
      expect(await store().latestOfferMonth('Japan')).toBeNull();
    });

    it('keeps the key order of an offer’s groups and grades, and replaces its data whole', async () => {
      const data = { PP: { Raffia: 1000, Homo: 990.5, Copo: 1010 }, HDPE: { Film: 1100, Blow: 1090 }, ABS: { General: 1500 } };
      await store().upsertOffers([{ country: 'UAE', date: '2025-05-05', data }]);
      const [stored] = await store().offersInMonth('UAE', 2025, 5);
      expect(JSON.stringify(stored?.data)).toBe(JSON.stringify(data));
      await store().upsertOffers([{ country: 'UAE', date: '2025-05-05', data: { LLDPE: { Film: 1 } } }]);
      expect(await store().offersInMonth('UAE', 2025, 5)).toEqual([{ country: 'UAE', date: '2025-05-05', data: { LLDPE: { Film: 1 } } }]);
    });
  });

  describe('banners', () => {
    it('replaces the banner list as a whole and lists it by order', async () => {
      expect(await store().listBanners()).toEqual([]);
      await store().replaceBanners([banner('a', 2), banner('b', 1), banner('c', 3, { subtitle: '' })]);
      expect(await store().listBanners()).toEqual([banner('b', 1), banner('a', 2), banner('c', 3, { subtitle: '' })]);
      await store().replaceBanners([banner('a', 1, { title: 'New A' })]);
      expect(await store().listBanners()).toEqual([banner('a', 1, { title: 'New A' })]);
      await store().replaceBanners([]);
      expect(await store().listBanners()).toEqual([]);
      // Equal orders: by id.
      await store().replaceBanners([banner('z', 1), banner('m', 1), banner('a', 2)]);
      expect((await store().listBanners()).map((b) => b.id)).toEqual(['m', 'z', 'a']);
    });
  });

  describe('ranges', () => {
    const CIF = 'historical.ppRaffia.cif-ns';
    const ACTOR = { uid: 'adm', email: null };
    const AT = new Date('2026-11-22T00:00:00Z');

    it('keeps low and high beside the mid, and a single value stays single (old rows read as before)', async () => {
      await withCatalog();
      await store().upsertPoints([
        { seriesId: CIF, date: '2025-01-03', value: 1015, low: 1005, high: 1025 },
        { seriesId: CIF, date: '2025-01-10', value: 1012.5, low: 1005, high: 1020 },
        { seriesId: CIF, date: '2025-01-17', value: 1030 },
        { seriesId: NAPHTHA, date: '2025-01-03', value: 600 },
      ]);
      expect(await store().points(CIF)).toEqual([
        { date: '2025-01-03', value: 1015, low: 1005, high: 1025 },
        { date: '2025-01-10', value: 1012.5, low: 1005, high: 1020 },
        { date: '2025-01-17', value: 1030 },
      ]);
      expect(await store().latestPoints(CIF, 2)).toEqual([{ date: '2025-01-10', value: 1012.5, low: 1005, high: 1020 }, { date: '2025-01-17', value: 1030 }]);
      expect(await store().points(NAPHTHA)).toEqual([{ date: '2025-01-03', value: 600 }]);
      // A range written over a single value, and a single value over a range.
      await store().upsertPoints([{ seriesId: CIF, date: '2025-01-17', value: 1031, low: 1030, high: 1032 }, { seriesId: CIF, date: '2025-01-03', value: 1016 }]);
      expect(await store().points(CIF, { from: '2025-01-03', to: '2025-01-17' })).toEqual([
        { date: '2025-01-03', value: 1016 },
        { date: '2025-01-10', value: 1012.5, low: 1005, high: 1020 },
        { date: '2025-01-17', value: 1031, low: 1030, high: 1032 },
      ]);
    });

    it.each([
      ['a low without a high', { value: 1005, low: 1005 }],
      ['a high without a low', { value: 1025, high: 1025 }],
      ['a low above the high', { value: 1015, low: 1025, high: 1005 }],
      ['a value that is not the mid', { value: 1010, low: 1005, high: 1025 }],
      ['a low that is not a number', { value: 1015, low: Number.NaN, high: 1025 }],
    ])('refuses a batch with %s, writing nothing', async (_, bad) => {
      await withCatalog();
      await store().upsertPoints([{ seriesId: CIF, date: '2025-01-03', value: 1000 }]);
      await expect(attempt(() => store().upsertPoints([{ seriesId: CIF, date: '2025-01-10', value: 1010 }, { seriesId: CIF, date: '2025-01-17', ...bad }]))).rejects.toThrow(RangeError);
      await expect(attempt(() => store().upsertCityPrices([{ city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', date: '2025-01-13', ...bad, price: bad.value }]))).rejects.toThrow(RangeError);
      expect(await store().points(CIF)).toEqual([{ date: '2025-01-03', value: 1000 }]);
      expect(await store().latestCitySheets()).toEqual([]);
    });

    it('city rows keep their range; the admin writes and audits ranges, and reads a change of ends as a change', async () => {
      await withCatalog();
      await store().upsertCityPrices([
        { city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', price: 109.5, low: 109, high: 110, date: '2025-01-13' },
        city('mumbai', 'ppFilm', 112, '2025-01-13'),
      ]);
      expect(await store().latestCitySheet('mumbai')).toEqual([
        city('mumbai', 'ppFilm', 112, '2025-01-13'),
        { city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', price: 109.5, low: 109, high: 110, date: '2025-01-13' },
      ]);
      expect(await store().cityGradeHistory('ppRaffia', ['mumbai'], {})).toEqual([{ city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', price: 109.5, low: 109, high: 110, date: '2025-01-13' }]);
      // Same mid, other ends: a change, audited with both.
      const cityEdit = await store().adminSetCityPrice({ city: 'mumbai', date: '2025-01-13', polymerType: 'PP', grade: 'ppRaffia', price: 109.5, low: 108.5, high: 110.5, expected: 109.5, actor: ACTOR, now: AT });
      expect(cityEdit).toMatchObject({ kind: 'written', before: { value: 109.5, low: 109, high: 110 }, after: { value: 109.5, low: 108.5, high: 110.5 } });
      expect(cityEdit.kind === 'written' && cityEdit.entry.before).toEqual({ grade: 'ppRaffia', date: '2025-01-13', value: 109.5, low: 109, high: 110 });
      expect(await store().adminSetCityPrice({ city: 'mumbai', date: '2025-01-13', polymerType: 'PP', grade: 'ppRaffia', price: 109.5, low: 108.5, high: 110.5, expected: 109.5, actor: ACTOR, now: AT })).toEqual({ kind: 'unchanged' });
      expect((await store().latestCitySheet('mumbai'))[1]).toEqual({ city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', price: 109.5, low: 108.5, high: 110.5, date: '2025-01-13' });

      const set = await store().adminSetPoint({ seriesId: CIF, date: '2025-01-03', value: 1015, low: 1005, high: 1025, expected: null, actor: ACTOR, now: AT });
      expect(set.kind === 'written' && set.entry.after).toEqual({ date: '2025-01-03', value: 1015, low: 1005, high: 1025 });
      expect(await store().adminSetPoint({ seriesId: CIF, date: '2025-01-03', value: 1015, expected: 1015, actor: ACTOR, now: AT })).toMatchObject({ kind: 'written', after: { date: '2025-01-03', value: 1015 } });
      expect(await store().points(CIF)).toEqual([{ date: '2025-01-03', value: 1015 }]);
      const imported = await store().adminImportPoints({
        rows: [{ series: CIF, date: '2025-01-03', value: 1015, low: 1010, high: 1020 }, { series: CIF, date: '2025-01-10', value: 1020 }],
        actor: ACTOR, now: AT, dryRun: false,
      });
      expect(imported).toMatchObject({ rows: 2, changed: 2 });
      expect(await store().adminImportPoints({ rows: [{ series: CIF, date: '2025-01-03', value: 1015, low: 1010, high: 1020 }], actor: ACTOR, now: AT, dryRun: true })).toMatchObject({ changed: 0 });
      expect(await store().points(CIF)).toEqual([{ date: '2025-01-03', value: 1015, low: 1010, high: 1020 }, { date: '2025-01-10', value: 1020 }]);
      expect(await store().adminDeletePoint({ seriesId: CIF, date: '2025-01-03', expected: 1015, actor: ACTOR, now: AT })).toMatchObject({ kind: 'written', before: { value: 1015, low: 1010, high: 1020 } });
    });

    it('ranges and single values round-trip through the transfer port with equal checksums', async () => {
      await withCatalog();
      await store().upsertPoints([
        { seriesId: CIF, date: '2024-12-27', value: 1000 },
        { seriesId: CIF, date: '2025-01-03', value: 1015, low: 1005, high: 1025 },
      ]);
      await store().upsertCityPrices([{ city: 'pune', polymerType: 'PP', grade: 'ppRaffia', price: 110, low: 109, high: 111, date: '2025-01-13' }, city('pune', 'ppFilm', 112, '2025-01-13')]);
      const kinds = ['series', 'points', 'cityPrices'] as const;
      const other = await backend.open();
      try {
        for (const kind of kinds) {
          const exported: object[] = [];
          for await (const page of store().exportRecords(kind)) exported.push(...page);
          await other.importRecords(kind, exported as never[]);
          const back: object[] = [];
          for await (const page of other.exportRecords(kind)) back.push(...page);
          expect(summarize(kind, back), kind).toEqual(summarize(kind, exported));
        }
        expect(await other.points(CIF)).toEqual(await store().points(CIF));
        expect(await other.latestCitySheet('pune')).toEqual(await store().latestCitySheet('pune'));
        const points: object[] = [];
        for await (const page of other.exportRecords('points')) points.push(...page);
        expect(points).toContainEqual({ seriesId: CIF, date: '2025-01-03', value: 1015, low: 1005, high: 1025 });
        expect(points).toContainEqual({ seriesId: CIF, date: '2024-12-27', value: 1000 });
      } finally {
        await other.close();
      }
    });
  });

  describe('offers as ranges', () => {
    const ACTOR = { uid: 'adm', email: null };
    const AT = new Date('2026-11-22T00:00:00Z');
    const ranged = { country: 'India', date: '2025-03-03', data: { PP: { Raffia: 1015, Homo: 1030 }, HDPE: { Film: 1100 } }, ranges: { PP: { Raffia: { low: 1005, high: 1025 } }, HDPE: { Film: { low: 1095, high: 1105 } } } };

    it('keeps a range cell’s low and high beside its mid, single cells stay single, a day without ranges has no ranges key', async () => {
      await store().upsertOffers([ranged, { country: 'India', date: '2025-03-17', data: { PP: { Raffia: 1020, Homo: 1012.5 } }, ranges: { PP: { Homo: { low: 1005, high: 1020 } } } }, { country: 'India', date: '2025-03-31', data: { PP: { Raffia: 1040 } } }]);
      const month = await store().offersInMonth('India', 2025, 3);
      expect(month).toEqual([
        ranged,
        { country: 'India', date: '2025-03-17', data: { PP: { Raffia: 1020, Homo: 1012.5 } }, ranges: { PP: { Homo: { low: 1005, high: 1020 } } } },
        { country: 'India', date: '2025-03-31', data: { PP: { Raffia: 1040 } } },
      ]);
      expect(Object.keys(month[2]!)).toEqual(['country', 'date', 'data']);
      // An empty ranges map is no range: the day reads as single values.
      await store().upsertOffers([{ country: 'India', date: '2025-03-31', data: { PP: { Raffia: 1041 } }, ranges: {} }]);
      expect(Object.keys((await store().offersInMonth('India', 2025, 3))[2]!)).toEqual(['country', 'date', 'data']);
      // A day written again without its ranges loses them (a day is replaced whole).
      await store().upsertOffers([{ country: 'India', date: '2025-03-03', data: ranged.data }]);
      expect((await store().offersInMonth('India', 2025, 3))[0]).toEqual({ country: 'India', date: '2025-03-03', data: ranged.data });
    });

    it.each([
      ['a low without a high', { PP: { Raffia: { low: 1005 } } }],
      ['a high without a low', { PP: { Raffia: { high: 1025 } } }],
      ['a range with neither end', { PP: { Raffia: {} } }],
      ['a low above the high', { PP: { Raffia: { low: 1025, high: 1005 } } }],
      ['a value that is not the mid', { PP: { Raffia: { low: 1000, high: 1025 } } }],
      ['a range of a cell without a value', { PP: { Copo: { low: 1005, high: 1025 } } }],
      ['an end that is not a number', { PP: { Raffia: { low: '1005', high: 1025 } } }],
    ])('refuses a batch with %s, writing nothing; the admin write refuses it too', async (_, ranges) => {
      await store().upsertOffers([{ country: 'India', date: '2025-03-03', data: { PP: { Raffia: 990 } } }]);
      const bad = { country: 'India', date: '2025-03-17', data: { PP: { Raffia: 1015 } }, ranges: ranges as never };
      await expect(attempt(() => store().upsertOffers([{ country: 'Egypt', date: '2025-03-17', data: { PP: { Raffia: 1000 } } }, bad]))).rejects.toThrow();
      await expect(attempt(() => store().adminSetOffers({ country: 'India', date: '2025-03-03', data: bad.data, ranges: bad.ranges, actor: ACTOR, now: AT }))).rejects.toThrow();
      expect(await store().offersInMonth('India', 2025, 3)).toEqual([{ country: 'India', date: '2025-03-03', data: { PP: { Raffia: 990 } } }]);
      expect(await store().latestOfferMonth('Egypt')).toBeNull();
      expect((await store().listAudit({ target: 'offers:India' })).total).toBe(0);
    });

    it('the admin write keeps and audits the ends; other ends with the same mid are a change, the same day again is not', async () => {
      const added = await store().adminSetOffers({ country: 'India', date: '2025-03-03', data: ranged.data, ranges: ranged.ranges, actor: ACTOR, now: AT });
      expect(added.kind === 'written' && added.entry).toMatchObject({ action: 'offers.add', before: null, after: { date: '2025-03-03', data: ranged.data, ranges: ranged.ranges } });
      expect(await store().offersInMonth('India', 2025, 3)).toEqual([ranged]);
      expect(await store().adminSetOffers({ country: 'India', date: '2025-03-03', data: ranged.data, ranges: ranged.ranges, actor: ACTOR, now: AT })).toEqual({ kind: 'unchanged' });
      const wider = { PP: { Raffia: { low: 995, high: 1035 } }, HDPE: { Film: { low: 1095, high: 1105 } } };
      const changed = await store().adminSetOffers({ country: 'India', date: '2025-03-03', data: ranged.data, ranges: wider, actor: ACTOR, now: AT });
      expect(changed.kind).toBe('written');
      if (changed.kind === 'written') {
        expect(changed.entry.before).toEqual({ date: '2025-03-03', data: ranged.data, ranges: ranged.ranges });
        expect(changed.entry.after).toEqual({ date: '2025-03-03', data: ranged.data, ranges: wider });
      }
      // Back to single values: the audit's after has no ranges.
      const single = await store().adminSetOffers({ country: 'India', date: '2025-03-03', data: ranged.data, actor: ACTOR, now: AT });
      expect(single.kind === 'written' && single.entry.after).toEqual({ date: '2025-03-03', data: ranged.data });
      expect(await store().offersInMonth('India', 2025, 3)).toEqual([{ country: 'India', date: '2025-03-03', data: ranged.data }]);
      expect((await store().listAudit({ target: 'offers:India' })).total).toBe(3);
    });

    it('ranges and single days round-trip through the transfer port with equal checksums', async () => {
      await store().upsertOffers([ranged, { country: 'Egypt', date: '2025-03-03', data: { PP: { Raffia: 1000 } } }]);
      const other = await backend.open();
      try {
        const exported: object[] = [];
        for await (const page of store().exportRecords('offers')) exported.push(...page);
        expect(exported).toContainEqual(ranged);
        expect(exported).toContainEqual({ country: 'Egypt', date: '2025-03-03', data: { PP: { Raffia: 1000 } } });
        await other.importRecords('offers', exported as never[]);
        const back: object[] = [];
        for await (const page of other.exportRecords('offers')) back.push(...page);
        expect(summarize('offers', back)).toEqual(summarize('offers', exported));
        expect(await other.offersInMonth('India', 2025, 3)).toEqual([ranged]);
        await expect(attempt(() => other.importRecords('offers', [{ ...ranged, ranges: { PP: { Raffia: { low: 1005, high: 1030 } } } }]))).rejects.toThrow(RangeError);
      } finally {
        await other.close();
      }
    });
  });

  describe('demo seed', () => {
    // Its speed is `npm run bench`'s business, not a test's: only the outcome is checked here.
    // Minutes on a busy machine (a JVM emulator beside two test workers), seconds when idle.
    it('fills an empty store, and seeding again changes nothing', { timeout: 300_000 }, async () => {
      expect(await store().hasNoPrices()).toBe(true);
      const first = await seedDemoPrices(store(), '2026-11-22');
      expect(await store().hasNoPrices()).toBe(false);
      const before = await store().extent(FX_SERIES_ID);
      const second = await seedDemoPrices(store(), '2026-11-22');
      expect(second).toEqual(first);
      expect(await store().extent(FX_SERIES_ID)).toEqual(before);
      expect((await store().latestCitySheet('ahmedabad')).length).toBeGreaterThan(10);
    });
  });
});
