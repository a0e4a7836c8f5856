/** The PriceAdminStore and BannerAdminStore contracts: audited writes with a check of what the administrator saw. */
import { describe, expect, it } from 'vitest';
import { allSeries, feedstockSeriesId, FX_SERIES_ID } from '../../src/lib/seriesCatalog.ts';
import type { AuditActor } from '../../src/server/store/audit.ts';
import type { Banner } from '../../src/server/store/prices.ts';
import { attempt, backends, storePerTest, withTwins, twinTest } from './backends.ts';

const NOW = new Date('2026-11-22T04:30:00.000Z');
const ACTOR: AuditActor = { uid: 'adm', email: 'Adm@Example.test' };
const NAPHTHA = feedstockSeriesId('Naphtha', 'japan');
const banner = (id: string, order: number): Banner => ({ id, title: `Title ${id}`, subtitle: `Sub ${id}`, href: `/${id}`, image: `/banners/${id}.svg`, alt: `alt ${id}`, order });
const newBanner = (id: string): Omit<Banner, 'order'> => {
  const { order: _order, ...rest } = banner(id, 0);
  return rest;
};

describe.each(backends)('admin writes on $name', (backend) => {
  const store = storePerTest(backend);
  const withCatalog = async () => store().upsertSeries(allSeries);

  describe('adminSetPoint and adminDeletePoint', () => {
    it('adds, changes and deletes a point when the value seen is still current, auditing each', async () => {
      await withCatalog();
      const added = await store().adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-06', value: 612.5, expected: null, actor: ACTOR, now: NOW });
      expect(added).toMatchObject({ kind: 'written', before: null, after: { date: '2025-01-06', value: 612.5 } });
      if (added.kind !== 'written') return;
      expect(added.entry).toMatchObject({
        at: NOW.toISOString(), actor: { uid: 'adm', email: 'adm@example.test' }, action: 'price.add', target: `series:${NAPHTHA}`,
        before: null, after: { date: '2025-01-06', value: 612.5 },
      });
      expect(await store().points(NAPHTHA)).toEqual([{ date: '2025-01-06', value: 612.5 }]);

      const later = new Date(NOW.getTime() + 1000);
      const changed = await store().adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-06', value: 615, expected: 612.5, actor: ACTOR, now: later });
      expect(changed).toMatchObject({ kind: 'written', before: { date: '2025-01-06', value: 612.5 }, after: { date: '2025-01-06', value: 615 } });
      if (changed.kind === 'written') expect(changed.entry).toMatchObject({ action: 'price.change', before: { date: '2025-01-06', value: 612.5 }, after: { date: '2025-01-06', value: 615 } });

      const deleted = await store().adminDeletePoint({ seriesId: NAPHTHA, date: '2025-01-06', expected: 615, actor: ACTOR, now: later });
      expect(deleted).toMatchObject({ kind: 'written', before: { date: '2025-01-06', value: 615 }, after: null });
      if (deleted.kind === 'written') expect(deleted.entry).toMatchObject({ action: 'price.delete', target: `series:${NAPHTHA}`, before: { date: '2025-01-06', value: 615 }, after: null });
      expect(await store().points(NAPHTHA)).toEqual([]);

      const log = await store().listAudit({ target: `series:${NAPHTHA}` });
      expect(log.entries.map((e) => e.action)).toEqual(['price.delete', 'price.change', 'price.add']);
      expect(log.entries[2]).toEqual(added.entry);
    });

    it('refuses a stale edit with the current value, and reports an edit to the same value as unchanged', async () => {
      await withCatalog();
      await store().upsertPoints([{ seriesId: NAPHTHA, date: '2025-01-06', value: 600 }]);
      expect(await store().adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-06', value: 610, expected: 590, actor: ACTOR, now: NOW })).toEqual({ kind: 'conflict', current: 600 });
      expect(await store().adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-06', value: 610, expected: null, actor: ACTOR, now: NOW })).toEqual({ kind: 'conflict', current: 600 });
      expect(await store().adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-07', value: 610, expected: 600, actor: ACTOR, now: NOW })).toEqual({ kind: 'conflict', current: null });
      expect(await store().adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-06', value: 600, expected: 600, actor: ACTOR, now: NOW })).toEqual({ kind: 'unchanged' });
      expect(await store().adminDeletePoint({ seriesId: NAPHTHA, date: '2025-01-06', expected: 601, actor: ACTOR, now: NOW })).toEqual({ kind: 'conflict', current: 600 });
      expect(await store().adminDeletePoint({ seriesId: NAPHTHA, date: '2025-01-08', expected: 600, actor: ACTOR, now: NOW })).toEqual({ kind: 'conflict', current: null });
      expect(await store().points(NAPHTHA)).toEqual([{ date: '2025-01-06', value: 600 }]);
      expect((await store().listAudit()).total).toBe(0);
    });

    it('refuses a point of a series it does not know, writing nothing', async () => {
      await withCatalog();
      await expect(attempt(() => store().adminSetPoint({ seriesId: 'no.such.series', date: '2025-01-06', value: 1, expected: null, actor: ACTOR, now: NOW }))).rejects.toThrow();
      expect(await store().points('no.such.series')).toEqual([]);
      expect(await store().hasNoPrices()).toBe(true);
      expect((await store().listAudit()).total).toBe(0);
    });

    it('tells a point of value 0 from no point', async () => {
      await withCatalog();
      await store().upsertPoints([{ seriesId: NAPHTHA, date: '2025-01-06', value: 0 }]);
      expect(await store().adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-06', value: 5, expected: null, actor: ACTOR, now: NOW })).toEqual({ kind: 'conflict', current: 0 });
      expect(await store().adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-07', value: 0, expected: null, actor: ACTOR, now: NOW })).toMatchObject({ kind: 'written', before: null, after: { date: '2025-01-07', value: 0 } });
      expect(await store().adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-07', value: 0, expected: 0, actor: ACTOR, now: NOW })).toEqual({ kind: 'unchanged' });
      expect(await store().adminDeletePoint({ seriesId: NAPHTHA, date: '2025-01-06', expected: 0, actor: ACTOR, now: NOW })).toMatchObject({ kind: 'written', before: { date: '2025-01-06', value: 0 }, after: null });
      expect(await store().points(NAPHTHA)).toEqual([{ date: '2025-01-07', value: 0 }]);
    });

    it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('refuses the value %s, writing nothing', async (value) => {
      await withCatalog();
      await expect(attempt(() => store().adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-06', value, expected: null, actor: ACTOR, now: NOW }))).rejects.toThrow(RangeError);
      expect(await store().points(NAPHTHA)).toEqual([]);
      expect((await store().listAudit()).total).toBe(0);
    });

    it('refuses a malformed date, writing nothing', async () => {
      await withCatalog();
      await expect(attempt(() => store().adminSetPoint({ seriesId: NAPHTHA, date: '2025-1-6', value: 1, expected: null, actor: ACTOR, now: NOW }))).rejects.toThrow();
      expect(await store().points(NAPHTHA)).toEqual([]);
      expect(await store().hasNoPrices()).toBe(true);
      expect((await store().listAudit()).total).toBe(0);
    });

    it('two concurrent edits from the same value seen on one handle: one is written, the other is a conflict', async () => {
      await withCatalog();
      const edit = (value: number) => store().adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-06', value, expected: null, actor: ACTOR, now: NOW });
      const results = await Promise.all([edit(1), edit(2)]);
      expect(results.map((r) => r.kind).toSorted()).toEqual(['conflict', 'written']);
      const winner = results[0].kind === 'written' ? 1 : 2;
      expect(results.find((r) => r.kind === 'conflict')).toEqual({ kind: 'conflict', current: winner });
      expect(await store().points(NAPHTHA)).toEqual([{ date: '2025-01-06', value: winner }]);
      expect((await store().listAudit()).total).toBe(1);
    });

    twinTest(backend)('two concurrent edits from the same value seen, from two processes: one is written, the other is a conflict', async () => {
      await withTwins(backend, async (a, b) => {
        await a.upsertSeries(allSeries);
        const results = await Promise.all([
          a.adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-06', value: 1, expected: null, actor: ACTOR, now: NOW }),
          b.adminSetPoint({ seriesId: NAPHTHA, date: '2025-01-06', value: 2, expected: null, actor: ACTOR, now: NOW }),
        ]);
        expect(results.map((r) => r.kind).toSorted()).toEqual(['conflict', 'written']);
        const winner = results[0].kind === 'written' ? 1 : 2;
        expect(await b.points(NAPHTHA)).toEqual([{ date: '2025-01-06', value: winner }]);
        expect((await a.listAudit()).total).toBe(1);
      });
    });
  });

  describe('adminImportPoints', () => {
    const rows = [
      { series: NAPHTHA, date: '2025-01-06', value: 600 },
      { series: NAPHTHA, date: '2025-01-07', value: 601 },
      { series: FX_SERIES_ID, date: '2025-01-06', value: 85.9 },
    ];

    it('a dry run counts what would change and writes nothing', async () => {
      await withCatalog();
      await store().upsertPoints([{ seriesId: NAPHTHA, date: '2025-01-06', value: 600 }]);
      const dry = await store().adminImportPoints({ rows, actor: ACTOR, now: NOW, dryRun: true });
      expect(dry).toEqual({ rows: 3, changed: 2, bySeries: { [NAPHTHA]: { rows: 2, changed: 1 }, [FX_SERIES_ID]: { rows: 1, changed: 1 } }, entry: null });
      expect(await store().points(NAPHTHA)).toEqual([{ date: '2025-01-06', value: 600 }]);
      expect(await store().points(FX_SERIES_ID)).toEqual([]);
      expect((await store().listAudit()).total).toBe(0);
    });

    it('writes the rows with one audit entry; an import that changes nothing makes no entry', async () => {
      await withCatalog();
      await store().upsertPoints([{ seriesId: NAPHTHA, date: '2025-01-06', value: 599 }]);
      const result = await store().adminImportPoints({ rows, actor: ACTOR, now: NOW, dryRun: false });
      const bySeries = { [NAPHTHA]: { rows: 2, changed: 2 }, [FX_SERIES_ID]: { rows: 1, changed: 1 } };
      expect(result).toMatchObject({ rows: 3, changed: 3, bySeries });
      expect(result.entry).toMatchObject({
        at: NOW.toISOString(), actor: { uid: 'adm', email: 'adm@example.test' }, action: 'price.import', target: 'prices:import',
        before: null, after: { rows: 3, changed: 3, series: bySeries },
      });
      expect(await store().points(NAPHTHA)).toEqual([{ date: '2025-01-06', value: 600 }, { date: '2025-01-07', value: 601 }]);
      expect(await store().points(FX_SERIES_ID)).toEqual([{ date: '2025-01-06', value: 85.9 }]);
      expect((await store().listAudit()).entries).toEqual([result.entry]);

      const again = await store().adminImportPoints({ rows, actor: ACTOR, now: NOW, dryRun: false });
      expect(again).toEqual({ rows: 3, changed: 0, bySeries: { [NAPHTHA]: { rows: 2, changed: 0 }, [FX_SERIES_ID]: { rows: 1, changed: 0 } }, entry: null });
      expect((await store().listAudit()).total).toBe(1);
    });

    it('refuses a non-finite value anywhere in the rows, writing nothing', async () => {
      await withCatalog();
      const bad = [...rows, { series: NAPHTHA, date: '2025-01-08', value: Number.NaN }];
      await expect(attempt(() => store().adminImportPoints({ rows: bad, actor: ACTOR, now: NOW, dryRun: false }))).rejects.toThrow(RangeError);
      expect(await store().hasNoPrices()).toBe(true);
      expect((await store().listAudit()).total).toBe(0);
    });

    it('refuses rows of a series it does not know, writing nothing', async () => {
      await withCatalog();
      const bad = [...rows, { series: 'no.such.series', date: '2025-01-08', value: 1 }];
      await expect(attempt(() => store().adminImportPoints({ rows: bad, actor: ACTOR, now: NOW, dryRun: false }))).rejects.toThrow();
      expect(await store().hasNoPrices()).toBe(true);
      expect((await store().listAudit()).total).toBe(0);
    });

    it('imports a batch larger than one commit', async () => {
      await withCatalog();
      const big = Array.from({ length: 1100 }, (_, i) => {
        const d = new Date(Date.UTC(2020, 0, 1 + i));
        return { series: NAPHTHA, date: d.toISOString().slice(0, 10), value: i };
      });
      const result = await store().adminImportPoints({ rows: big, actor: ACTOR, now: NOW, dryRun: false });
      expect(result).toMatchObject({ rows: 1100, changed: 1100 });
      expect(await store().extent(NAPHTHA)).toEqual({ first: '2020-01-01', last: big.at(-1)!.date, count: 1100 });
      expect((await store().latestPoints(NAPHTHA, 1))[0]).toEqual({ date: big.at(-1)!.date, value: 1099 });
    });
  });

  describe('latestDates', () => {
    it('gives every series’ latest point date', async () => {
      await withCatalog();
      expect(await store().latestDates()).toEqual(new Map());
      await store().upsertPoints([
        { seriesId: NAPHTHA, date: '2024-12-31', value: 1 },
        { seriesId: NAPHTHA, date: '2025-01-03', value: 2 },
        { seriesId: FX_SERIES_ID, date: '2023-05-01', value: 3 },
      ]);
      expect(await store().latestDates()).toEqual(new Map([[NAPHTHA, '2025-01-03'], [FX_SERIES_ID, '2023-05-01']]));
      await store().adminDeletePoint({ seriesId: NAPHTHA, date: '2025-01-03', expected: 2, actor: ACTOR, now: NOW });
      expect(await store().latestDates()).toEqual(new Map([[NAPHTHA, '2024-12-31'], [FX_SERIES_ID, '2023-05-01']]));
    });
  });

  describe('adminSetCityPrice', () => {
    const edit = (price: number | null, expected: number | null, grade = 'ppRaffia') => store().adminSetCityPrice({
      city: 'mumbai', date: '2025-01-13', polymerType: 'PP', grade, price, expected, actor: ACTOR, now: NOW,
    });

    it('adds, changes and removes a row of a sheet, auditing each under the city', async () => {
      const added = await edit(101, null);
      expect(added).toMatchObject({ kind: 'written', before: null, after: { date: '2025-01-13', value: 101 } });
      if (added.kind === 'written') expect(added.entry).toMatchObject({ action: 'citywise.add', target: 'citywise:mumbai', before: null, after: { grade: 'ppRaffia', date: '2025-01-13', value: 101 } });
      expect(await store().citySheetOn('mumbai', '2025-01-13')).toEqual([{ city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', price: 101, date: '2025-01-13' }]);
      const changed = await edit(102.5, 101);
      if (changed.kind !== 'written') throw new Error(`not written: ${changed.kind}`);
      expect(changed.entry).toMatchObject({ action: 'citywise.change', before: { grade: 'ppRaffia', date: '2025-01-13', value: 101 }, after: { grade: 'ppRaffia', date: '2025-01-13', value: 102.5 } });
      expect(await store().latestCitySheet('mumbai')).toEqual([{ city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', price: 102.5, date: '2025-01-13' }]);
      const removed = await edit(null, 102.5);
      expect(removed).toMatchObject({ kind: 'written', before: { date: '2025-01-13', value: 102.5 }, after: null });
      if (removed.kind === 'written') expect(removed.entry).toMatchObject({ action: 'citywise.delete', before: { grade: 'ppRaffia', value: 102.5 }, after: null });
      expect(await store().citySheetOn('mumbai', '2025-01-13')).toEqual([]);
      expect((await store().listAudit({ target: 'citywise:mumbai' })).total).toBe(3);
    });

    it('refuses a stale edit and reports a same-value edit as unchanged, writing nothing', async () => {
      await store().upsertCityPrices([{ city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', price: 100, date: '2025-01-13' }]);
      expect(await edit(105, 99)).toEqual({ kind: 'conflict', current: 100 });
      expect(await edit(105, null)).toEqual({ kind: 'conflict', current: 100 });
      expect(await edit(null, 99)).toEqual({ kind: 'conflict', current: 100 });
      expect(await edit(105, 100, 'ppFilm')).toEqual({ kind: 'conflict', current: null });
      expect(await edit(100, 100)).toEqual({ kind: 'unchanged' });
      expect(await edit(null, null, 'ppFilm')).toEqual({ kind: 'unchanged' });
      expect(await store().citySheetOn('mumbai', '2025-01-13')).toEqual([{ city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', price: 100, date: '2025-01-13' }]);
      expect((await store().listAudit()).total).toBe(0);
    });

    it.each([Number.NaN, Number.NEGATIVE_INFINITY])('refuses the price %s, writing nothing', async (price) => {
      await expect(attempt(() => edit(price, null))).rejects.toThrow(RangeError);
      expect(await store().latestCitySheets()).toEqual([]);
      expect((await store().listAudit()).total).toBe(0);
    });

    it('refuses a malformed date, writing nothing', async () => {
      await expect(attempt(() => store().adminSetCityPrice({
        city: 'mumbai', date: '2025/01/13', polymerType: 'PP', grade: 'ppRaffia', price: 100, expected: null, actor: ACTOR, now: NOW,
      }))).rejects.toThrow();
      expect(await store().latestCitySheets()).toEqual([]);
      expect((await store().listAudit()).total).toBe(0);
    });

    it('leaves the other rows of the sheet as they are', async () => {
      await store().upsertCityPrices([
        { city: 'mumbai', polymerType: 'PP', grade: 'ppFilm', price: 98, date: '2025-01-13' },
        { city: 'mumbai', polymerType: 'HDPE', grade: 'hdFilm', price: 90, date: '2025-01-13' },
        { city: 'pune', polymerType: 'PP', grade: 'ppRaffia', price: 97, date: '2025-01-13' },
      ]);
      await edit(101, null);
      await edit(null, 101);
      expect(await store().citySheetOn('mumbai', '2025-01-13')).toEqual([
        { city: 'mumbai', polymerType: 'HDPE', grade: 'hdFilm', price: 90, date: '2025-01-13' },
        { city: 'mumbai', polymerType: 'PP', grade: 'ppFilm', price: 98, date: '2025-01-13' },
      ]);
      expect(await store().citySheetOn('pune', '2025-01-13')).toEqual([{ city: 'pune', polymerType: 'PP', grade: 'ppRaffia', price: 97, date: '2025-01-13' }]);
    });
  });

  describe('adminSetOffers', () => {
    it('adds and replaces a country’s offers of one date, keeping key order, auditing each; the same data is unchanged', async () => {
      const data = { PP: { Raffia: 1000, Homo: 990 }, HDPE: { Film: 1100 } };
      const added = await store().adminSetOffers({ country: 'USA', date: '2025-03-03', data, actor: ACTOR, now: NOW });
      expect(added.kind).toBe('written');
      if (added.kind === 'written') expect(added.entry).toMatchObject({ action: 'offers.add', target: 'offers:USA', before: null, after: { date: '2025-03-03', data } });
      const [stored] = await store().offersInMonth('USA', 2025, 3);
      expect(JSON.stringify(stored?.data)).toBe(JSON.stringify(data));
      expect(await store().adminSetOffers({ country: 'USA', date: '2025-03-03', data: { PP: { Raffia: 1000, Homo: 990 }, HDPE: { Film: 1100 } }, actor: ACTOR, now: NOW })).toEqual({ kind: 'unchanged' });
      const next = { PP: { Raffia: 1005 } };
      const changed = await store().adminSetOffers({ country: 'USA', date: '2025-03-03', data: next, actor: ACTOR, now: NOW });
      if (changed.kind !== 'written') throw new Error('not written');
      expect(changed.entry).toMatchObject({ action: 'offers.change', before: { date: '2025-03-03', data }, after: { date: '2025-03-03', data: next } });
      expect(await store().offersInMonth('USA', 2025, 3)).toEqual([{ country: 'USA', date: '2025-03-03', data: next }]);
      expect(await store().latestOfferMonth('USA')).toEqual({ year: 2025, month: 3 });
      expect((await store().listAudit({ target: 'offers:USA' })).total).toBe(2);
    });
  });

  describe('adminSetOffers bad input', () => {
    it.each([
      ['a non-finite value', '2025-03-03', { PP: { Raffia: Number.POSITIVE_INFINITY } }],
      ['a malformed date', '2025-3-3', { PP: { Raffia: 1 } }],
    ])('refuses %s, writing nothing', async (_what, date, data) => {
      await expect(attempt(() => store().adminSetOffers({ country: 'USA', date, data, actor: ACTOR, now: NOW }))).rejects.toThrow();
      expect(await store().latestOfferMonth('USA')).toBeNull();
      expect((await store().listAudit()).total).toBe(0);
    });
  });

  describe('banners', () => {
    it('adds a banner last and numbers the list 1…n, auditing it', async () => {
      await store().replaceBanners([banner('a', 5), banner('b', 10)]);
      const added = await store().adminAddBanner({ banner: newBanner('c'), actor: ACTOR, now: NOW });
      expect(added).toEqual({ kind: 'written', banners: [banner('a', 1), banner('b', 2), banner('c', 3)] });
      expect(await store().listBanners()).toEqual([banner('a', 1), banner('b', 2), banner('c', 3)]);
      const log = await store().listAudit({ target: 'banner:c' });
      expect(log.entries).toHaveLength(1);
      expect(log.entries[0]).toMatchObject({ action: 'banner.add', actor: { uid: 'adm', email: 'adm@example.test' }, before: null, after: banner('c', 3) });
      expect((await store().adminAddBanner({ banner: newBanner('d'), actor: ACTOR, now: NOW })).kind).toBe('written');
      expect((await store().listBanners()).map((b) => b.id)).toEqual(['a', 'b', 'c', 'd']);
    });

    it('refuses a banner whose id is in use, changing nothing', async () => {
      await store().replaceBanners([banner('a', 1), banner('b', 2)]);
      await expect(attempt(() => store().adminAddBanner({ banner: { ...newBanner('a'), title: 'Other' }, actor: ACTOR, now: NOW }))).rejects.toThrow();
      expect(await store().listBanners()).toEqual([banner('a', 1), banner('b', 2)]);
      expect((await store().listAudit()).total).toBe(0);
    });

    it('adds the first banner to an empty list', async () => {
      expect(await store().adminAddBanner({ banner: newBanner('only'), actor: ACTOR, now: NOW })).toEqual({ kind: 'written', banners: [banner('only', 1)] });
    });

    it('moves a banner up or down by one; unchanged at the ends; not_found for an unknown id', async () => {
      await store().replaceBanners([banner('a', 1), banner('b', 2), banner('c', 3)]);
      expect(await store().adminMoveBanner({ id: 'c', direction: 'up', actor: ACTOR, now: NOW })).toEqual({ kind: 'written', banners: [banner('a', 1), banner('c', 2), banner('b', 3)] });
      expect(await store().adminMoveBanner({ id: 'a', direction: 'down', actor: ACTOR, now: NOW })).toEqual({ kind: 'written', banners: [banner('c', 1), banner('a', 2), banner('b', 3)] });
      expect(await store().adminMoveBanner({ id: 'c', direction: 'up', actor: ACTOR, now: NOW })).toEqual({ kind: 'unchanged' });
      expect(await store().adminMoveBanner({ id: 'b', direction: 'down', actor: ACTOR, now: NOW })).toEqual({ kind: 'unchanged' });
      expect(await store().adminMoveBanner({ id: 'zz', direction: 'up', actor: ACTOR, now: NOW })).toEqual({ kind: 'not_found' });
      expect(await store().listBanners()).toEqual([banner('c', 1), banner('a', 2), banner('b', 3)]);
      const log = await store().listAudit();
      expect(log.total).toBe(2);
      expect(log.entries[1]).toMatchObject({ action: 'banner.move', target: 'banner:c', before: { order: 3, list: ['a', 'b', 'c'] }, after: { order: 2, list: ['a', 'c', 'b'] } });
    });

    it('numbers a list with gaps 1…n when it moves a banner', async () => {
      await store().replaceBanners([banner('a', 10), banner('b', 20), banner('c', 35)]);
      expect(await store().adminMoveBanner({ id: 'b', direction: 'down', actor: ACTOR, now: NOW })).toEqual({ kind: 'written', banners: [banner('a', 1), banner('c', 2), banner('b', 3)] });
      expect(await store().listBanners()).toEqual([banner('a', 1), banner('c', 2), banner('b', 3)]);
    });

    it('removes a banner and renumbers the rest; not_found for an unknown id', async () => {
      await store().replaceBanners([banner('a', 1), banner('b', 2), banner('c', 3)]);
      expect(await store().adminRemoveBanner({ id: 'b', actor: ACTOR, now: NOW })).toEqual({ kind: 'written', banners: [banner('a', 1), banner('c', 2)], removed: banner('b', 2) });
      expect(await store().listBanners()).toEqual([banner('a', 1), banner('c', 2)]);
      expect(await store().adminRemoveBanner({ id: 'b', actor: ACTOR, now: NOW })).toEqual({ kind: 'not_found' });
      const log = await store().listAudit();
      expect(log.total).toBe(1);
      expect(log.entries[0]).toMatchObject({ action: 'banner.remove', target: 'banner:b', before: banner('b', 2), after: null });
      await store().adminRemoveBanner({ id: 'a', actor: ACTOR, now: NOW });
      await store().adminRemoveBanner({ id: 'c', actor: ACTOR, now: NOW });
      expect(await store().listBanners()).toEqual([]);
    });

    it('two concurrent adds on one handle both land, numbered 1…n', async () => {
      await store().replaceBanners([banner('a', 1)]);
      await Promise.all([store().adminAddBanner({ banner: newBanner('x'), actor: ACTOR, now: NOW }), store().adminAddBanner({ banner: newBanner('y'), actor: ACTOR, now: NOW })]);
      const list = await store().listBanners();
      expect(list.map((b) => b.order)).toEqual([1, 2, 3]);
      expect(list.map((b) => b.id).toSorted()).toEqual(['a', 'x', 'y']);
      expect(list[0]!.id).toBe('a');
    });

    twinTest(backend)('two concurrent adds from two processes both land, numbered 1…n', async () => {
      await withTwins(backend, async (a, b) => {
        await a.replaceBanners([banner('a', 1)]);
        await Promise.all([a.adminAddBanner({ banner: newBanner('x'), actor: ACTOR, now: NOW }), b.adminAddBanner({ banner: newBanner('y'), actor: ACTOR, now: NOW })]);
        const list = await b.listBanners();
        expect(list.map((x) => x.order)).toEqual([1, 2, 3]);
        expect(list.map((x) => x.id).toSorted()).toEqual(['a', 'x', 'y']);
        expect((await a.listAudit()).total).toBe(2);
      });
    });
  });
});
