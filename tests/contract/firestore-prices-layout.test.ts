/**
 * The promises of the Firestore price layout (src/server/store/firestore/priceDocs.ts) that the
 * port's contract cannot see: which documents a read touches, what the documents hold, that
 * emptied documents go and summaries stay right, chunked bulk writes, and the price transfer.
 * Runs on the run's Firestore (Google's emulator, else the stand-in), each store in a project of its own.
 */
import type { DocumentReference, Firestore } from 'firebase-admin/firestore';
import { afterAll, describe, expect, it } from 'vitest';
import type { SeriesDef } from '../../src/lib/seriesCatalog.ts';
import { IMPORT_TARGET } from '../../src/server/store/priceAdmin.ts';
import { DOCS_PER_COMMIT, openFirestore, type FirestoreHandle } from '../../src/server/store/firestore/database.ts';
import { createFirestorePriceStore } from '../../src/server/store/firestore/prices.ts';
import { firestoreStoreOver } from '../../src/server/store/index.ts';
import { createFirestorePriceTransfer } from '../../src/server/store/firestore/priceTransfer.ts';
import type { TransferKind } from '../../src/server/store/transfer.ts';
import { suiteFirestore } from '../support/firestore.ts';

const NOW = new Date('2026-11-22T04:30:00.000Z');
const ACTOR = { uid: 'adm', email: 'adm@example.test' };

const series = (id: string): SeriesDef => ({
  id,
  family: 'feedstock',
  product: 'naphtha',
  market: 'japan',
  grade: '',
  unit: 'US$/t',
  currency: 'USD',
  frequency: 'daily',
  label: `Series ${id}`,
});

const handles: FirestoreHandle[] = [];
let project = 0;

afterAll(async () => {
  for (const handle of handles) await handle.close();
});

/**
 * A price store (and audit log) on a project of its own; `reads` lists the paths of every
 * document read outside a transaction (a single `get()` goes through `getAll` too).
 */
function open() {
  const handle = openFirestore({ projectId: `prices-layout-${Date.now()}-${++project}`, emulatorHost: suiteFirestore().host });
  handles.push(handle);
  const db = handle.db;
  const reads: string[][] = [];
  const getAll = db.getAll.bind(db);
  db.getAll = ((...refs: DocumentReference[]) => {
    reads.push(refs.map((r) => r.path));
    return getAll(...refs);
  }) as Firestore['getAll'];
  let transactions = 0;
  const runTransaction = db.runTransaction.bind(db);
  db.runTransaction = ((...args: Parameters<Firestore['runTransaction']>) => {
    transactions++;
    return runTransaction(...args);
  }) as Firestore['runTransaction'];
  return { db, store: createFirestorePriceStore(db), audit: firestoreStoreOver(db), reads, transactions: () => transactions };
}

const data = async (db: Firestore, path: string) => (await db.doc(path).get()).data() ?? null;

describe('series and their year documents', () => {
  it('keeps one document per year with ascending dates, and the series summary', async () => {
    const { db, store } = open();
    await store.upsertSeries([series('s.a')]);
    expect(await data(db, 'priceSeries/s.a')).toMatchObject({ id: 's.a', first: null, last: null, count: 0 });
    await store.upsertPoints([
      { seriesId: 's.a', date: '2021-03-02', value: 2 },
      { seriesId: 's.a', date: '2021-03-01', value: 1 },
      { seriesId: 's.a', date: '2022-01-05', value: 5 },
      { seriesId: 's.a', date: '2021-03-01', value: 1.5 }, // a later row of the same date wins
    ]);
    expect(await data(db, 'priceSeries/s.a/years/2021')).toEqual({
      seriesId: 's.a', year: 2021, dates: ['2021-03-01', '2021-03-02'], values: [1.5, 2], lows: [null, null], highs: [null, null], count: 2, first: '2021-03-01', last: '2021-03-02',
    });
    expect(await data(db, 'priceSeries/s.a')).toMatchObject({ first: '2021-03-01', last: '2022-01-05', count: 3 });
    // Redefining the series keeps its summary.
    await store.upsertSeries([{ ...series('s.a'), label: 'Renamed' }]);
    expect(await data(db, 'priceSeries/s.a')).toMatchObject({ label: 'Renamed', first: '2021-03-01', last: '2022-01-05', count: 3 });
    expect(await store.extent('s.a')).toEqual({ first: '2021-03-01', last: '2022-01-05', count: 3 });
  });

  it('keeps a range in lows and highs beside its mid; a year document written before ranges reads as single values', async () => {
    const { db, store } = open();
    await store.upsertSeries([series('s.r')]);
    await store.upsertPoints([
      { seriesId: 's.r', date: '2021-03-01', value: 1015, low: 1005, high: 1025 },
      { seriesId: 's.r', date: '2021-03-02', value: 1020 },
    ]);
    expect(await data(db, 'priceSeries/s.r/years/2021')).toMatchObject({ dates: ['2021-03-01', '2021-03-02'], values: [1015, 1020], lows: [1005, null], highs: [1025, null] });
    await db.doc('priceSeries/s.r/years/2020').set({ seriesId: 's.r', year: 2020, dates: ['2020-05-01'], values: [990], count: 1, first: '2020-05-01', last: '2020-05-01' });
    await db.doc('priceSeries/s.r').update({ first: '2020-05-01', count: 3 });
    expect(await store.points('s.r')).toEqual([
      { date: '2020-05-01', value: 990 },
      { date: '2021-03-01', value: 1015, low: 1005, high: 1025 },
      { date: '2021-03-02', value: 1020 },
    ]);
    await store.upsertCityPrices([{ city: 'pune', polymerType: 'PP', grade: 'ppRaffia', price: 110, low: 109, high: 111, date: '2025-01-13' }, { city: 'pune', polymerType: 'PP', grade: 'ppFilm', price: 112, date: '2025-01-13' }]);
    expect(await data(db, 'citySheets/pune/dates/2025-01-13')).toEqual({
      city: 'pune', date: '2025-01-13', rows: [{ polymerType: 'PP', grade: 'ppFilm', price: 112 }, { polymerType: 'PP', grade: 'ppRaffia', price: 110, low: 109, high: 111 }],
    });
  });

  it('keeps an offer cell’s range as low and high on its entry; a month written before ranges reads as single values', async () => {
    const { db, store } = open();
    await store.upsertOffers([{ country: 'India', date: '2025-03-03', data: { PP: { Raffia: 1015, Homo: 1030 } }, ranges: { PP: { Raffia: { low: 1005, high: 1025 } } } }]);
    expect(await data(db, 'offers/India/months/2025-03')).toEqual({
      country: 'India', month: '2025-03',
      days: [{ date: '2025-03-03', entries: [{ group: 'PP', grade: 'Raffia', value: 1015, low: 1005, high: 1025 }, { group: 'PP', grade: 'Homo', value: 1030 }] }],
    });
    await db.doc('offers/India/months/2025-02').set({ country: 'India', month: '2025-02', days: [{ date: '2025-02-17', entries: [{ group: 'PP', grade: 'Raffia', value: 990 }] }] });
    expect(await store.offersInMonth('India', 2025, 2)).toEqual([{ country: 'India', date: '2025-02-17', data: { PP: { Raffia: 990 } } }]);
  });

  it('a chart read of one year reads that year document only; an open end reads the series document', async () => {
    const { store, reads } = open();
    await store.upsertSeries([series('s.b')]);
    const rows = [];
    for (let year = 2015; year <= 2024; year++) for (const md of ['01-15', '06-15', '12-15']) rows.push({ seriesId: 's.b', date: `${year}-${md}`, value: year });
    await store.upsertPoints(rows);

    reads.length = 0;
    expect(await store.points('s.b', { from: '2020-02-01', to: '2020-12-31' })).toEqual([
      { date: '2020-06-15', value: 2020 },
      { date: '2020-12-15', value: 2020 },
    ]);
    expect(reads).toEqual([['priceSeries/s.b/years/2020']]);

    reads.length = 0;
    const open_ = await store.points('s.b', { from: '2023-12-01' });
    expect(open_.map((p) => p.date)).toEqual(['2023-12-15', '2024-01-15', '2024-06-15', '2024-12-15']);
    expect(reads).toEqual([['priceSeries/s.b'], ['priceSeries/s.b/years/2023', 'priceSeries/s.b/years/2024']]);

    expect(await store.latestPoints('s.b', 4)).toEqual([
      { date: '2023-12-15', value: 2023 },
      { date: '2024-01-15', value: 2024 },
      { date: '2024-06-15', value: 2024 },
      { date: '2024-12-15', value: 2024 },
    ]);
    expect((await store.latestPoints('s.b', 1000)).length).toBe(30);
    expect(await store.points('s.b', { from: '2030-01-01' })).toEqual([]);
  });

  it('deletes a year document that loses its last point and moves the summary to the neighbouring year', async () => {
    const { db, store, audit } = open();
    await store.upsertSeries([series('s.c')]);
    await store.upsertPoints([
      { seriesId: 's.c', date: '2019-05-01', value: 1 },
      { seriesId: 's.c', date: '2021-05-01', value: 2 },
      { seriesId: 's.c', date: '2021-07-01', value: 3 },
      { seriesId: 's.c', date: '2024-05-01', value: 4 },
    ]);
    const del = (date: string, expected: number) => store.adminDeletePoint({ seriesId: 's.c', date, expected, actor: ACTOR, now: NOW });
    expect((await del('2024-05-01', 4)).kind).toBe('written');
    expect(await data(db, 'priceSeries/s.c/years/2024')).toBeNull();
    expect(await store.extent('s.c')).toEqual({ first: '2019-05-01', last: '2021-07-01', count: 3 });
    expect((await del('2019-05-01', 1)).kind).toBe('written');
    expect(await data(db, 'priceSeries/s.c/years/2019')).toBeNull();
    expect(await store.extent('s.c')).toEqual({ first: '2021-05-01', last: '2021-07-01', count: 2 });
    expect((await del('2021-07-01', 3)).kind).toBe('written');
    expect(await data(db, 'priceSeries/s.c/years/2021')).toMatchObject({ dates: ['2021-05-01'], count: 1, first: '2021-05-01', last: '2021-05-01' });
    expect(await store.hasNoPrices()).toBe(false);
    expect((await del('2021-05-01', 2)).kind).toBe('written');
    expect(await data(db, 'priceSeries/s.c')).toMatchObject({ first: null, last: null, count: 0 });
    expect(await store.extent('s.c')).toBeNull();
    expect(await store.hasNoPrices()).toBe(true);
    expect((await store.latestDates()).has('s.c')).toBe(false);
    expect((await audit.listAudit({ target: 'series:s.c' })).total).toBe(4);
    // Adding a point back after the series was emptied.
    await store.adminSetPoint({ seriesId: 's.c', date: '2020-01-01', value: 9, expected: null, actor: ACTOR, now: NOW });
    expect(await store.extent('s.c')).toEqual({ first: '2020-01-01', last: '2020-01-01', count: 1 });
  });

  it('bulk writes bigger than one commit go in several transactions; bad input anywhere writes nothing', async () => {
    const { db, store, transactions } = open();
    await store.upsertSeries([series('s.d')]);
    // One point a year for 2 × DOCS_PER_COMMIT years: at least two commits.
    const rows = Array.from({ length: 2 * DOCS_PER_COMMIT }, (_, i) => ({ seriesId: 's.d', date: `${1000 + i}-06-01`, value: i }));
    const refused = [
      { ...rows[rows.length - 1]!, date: '1799-6-01' },
      { ...rows[rows.length - 1]!, value: Number.POSITIVE_INFINITY },
      { ...rows[rows.length - 1]!, seriesId: 'no/such' },
      { ...rows[rows.length - 1]!, seriesId: 'no.such.series' },
    ];
    for (const bad of refused) {
      await expect(store.upsertPoints([...rows.slice(0, -1), bad])).rejects.toThrow();
      expect(await store.extent('s.d')).toBeNull();
    }
    await expect(store.upsertPoints([{ ...rows[0]!, value: Number.NaN }])).rejects.toThrow(RangeError);
    const before = transactions();
    expect(await store.upsertPoints(rows)).toBe(rows.length);
    expect(transactions() - before).toBeGreaterThanOrEqual(2);
    expect(await store.extent('s.d')).toEqual({ first: '1000-06-01', last: `${999 + 2 * DOCS_PER_COMMIT}-06-01`, count: rows.length });
    expect((await db.collection('priceSeries/s.d/years').count().get()).data().count).toBe(rows.length);
  });

  it('an import bigger than one commit stays one audit entry, written with the last part', async () => {
    const { store, audit, transactions } = open();
    await store.upsertSeries([series('s.e')]);
    const rows = Array.from({ length: DOCS_PER_COMMIT + 50 }, (_, i) => ({ series: 's.e', date: `${1500 + i}-01-01`, value: i }));
    const dry = await store.adminImportPoints({ rows, actor: ACTOR, now: NOW, dryRun: true });
    expect(dry).toMatchObject({ rows: rows.length, changed: rows.length, entry: null });
    expect(await store.extent('s.e')).toBeNull();
    const before = transactions();
    const done = await store.adminImportPoints({ rows, actor: ACTOR, now: NOW, dryRun: false });
    expect(transactions() - before).toBeGreaterThanOrEqual(2);
    expect(done).toMatchObject({ rows: rows.length, changed: rows.length, bySeries: { 's.e': { rows: rows.length, changed: rows.length } } });
    expect(done.entry).toMatchObject({ action: 'price.import', target: IMPORT_TARGET, after: { rows: rows.length, changed: rows.length } });
    expect((await audit.listAudit({ target: IMPORT_TARGET })).total).toBe(1);
    expect((await store.extent('s.e'))?.count).toBe(rows.length);
    const again = await store.adminImportPoints({ rows, actor: ACTOR, now: NOW, dryRun: false });
    expect(again).toMatchObject({ changed: 0, entry: null });
    expect((await audit.listAudit({ target: IMPORT_TARGET })).total).toBe(1);
  });
});

describe('city sheets', () => {
  it('keeps the newest sheet copied on the city document, through edits and removals', async () => {
    const { db, store } = open();
    const edit = (date: string, grade: string, price: number | null, expected: number | null) =>
      store.adminSetCityPrice({ city: 'pune', date, polymerType: 'PP', grade, price, expected, actor: ACTOR, now: NOW });
    await store.upsertCityPrices([
      { city: 'pune', polymerType: 'PP', grade: 'ppRaffia', price: 100, date: '2025-01-06' },
      { city: 'pune', polymerType: 'HD', grade: 'hdFilm', price: 90, date: '2025-01-13' },
      { city: 'pune', polymerType: 'PP', grade: 'ppRaffia', price: 101, date: '2025-01-13' },
    ]);
    expect(await data(db, 'citySheets/pune')).toEqual({
      city: 'pune',
      latestDate: '2025-01-13',
      latestRows: [{ polymerType: 'HD', grade: 'hdFilm', price: 90 }, { polymerType: 'PP', grade: 'ppRaffia', price: 101 }],
    });
    expect(await data(db, 'citySheets/pune/dates/2025-01-06')).toEqual({ city: 'pune', date: '2025-01-06', rows: [{ polymerType: 'PP', grade: 'ppRaffia', price: 100 }] });
    // An older date's edit leaves the copy; an edit of the newest date changes it.
    expect((await edit('2025-01-06', 'ppRaffia', 99, 100)).kind).toBe('written');
    expect((await data(db, 'citySheets/pune'))?.['latestDate']).toBe('2025-01-13');
    expect((await edit('2025-01-13', 'hdFilm', 91, 90)).kind).toBe('written');
    expect((await store.latestCitySheet('pune')).map((r) => r.price)).toEqual([91, 101]);
    // Emptying the newest date: the previous date becomes the newest sheet.
    await edit('2025-01-13', 'hdFilm', null, 91);
    await edit('2025-01-13', 'ppRaffia', null, 101);
    expect(await data(db, 'citySheets/pune/dates/2025-01-13')).toBeNull();
    expect(await store.latestCitySheet('pune')).toEqual([{ city: 'pune', polymerType: 'PP', grade: 'ppRaffia', price: 99, date: '2025-01-06' }]);
    // A newer date becomes the newest sheet.
    await edit('2025-02-03', 'ppFilm', 120, null);
    expect((await store.latestCitySheets()).map((r) => `${r.city}:${r.grade}:${r.date}`)).toEqual(['pune:ppFilm:2025-02-03']);
    // Emptying every date removes the city from the newest sheets.
    await edit('2025-02-03', 'ppFilm', null, 120);
    await edit('2025-01-06', 'ppRaffia', null, 99);
    expect(await data(db, 'citySheets/pune')).toBeNull();
    expect(await store.latestCitySheets()).toEqual([]);
    expect(await store.latestCitySheet('pune')).toEqual([]);
  });
});

describe('offers and banners', () => {
  it('keeps a month per document, days ascending, the data’s key order (empty groups too)', async () => {
    const { db, store } = open();
    const data1 = { PP: { Raffia: 1000, Film: 1010 }, HDPE: {}, ABS: { Natural: 1500 } };
    await store.upsertOffers([
      { country: 'USA', date: '2025-03-17', data: { PP: { Raffia: 1 } } },
      { country: 'USA', date: '2025-03-03', data: data1 },
      { country: 'USA', date: '2025-04-01', data: { PP: { Raffia: 2 } } },
    ]);
    const month = await data(db, 'offers/USA/months/2025-03');
    expect(month).toMatchObject({ country: 'USA', month: '2025-03' });
    expect((month?.['days'] as { date: string }[]).map((d) => d.date)).toEqual(['2025-03-03', '2025-03-17']);
    const [first] = await store.offersInMonth('USA', 2025, 3);
    expect(JSON.stringify(first?.data)).toBe(JSON.stringify(data1));
    expect(await store.latestOfferMonth('USA')).toEqual({ year: 2025, month: 4 });
    const same = await store.adminSetOffers({ country: 'USA', date: '2025-03-03', data: data1, actor: ACTOR, now: NOW });
    expect(same.kind).toBe('unchanged');
  });

  it('keeps the banners in one document, renumbered by the admin writes', async () => {
    const { db, store } = open();
    const banner = { id: 'a', title: 'A', subtitle: 's', href: '/crude', image: '/banners/a.svg', alt: 'alt a' };
    await store.replaceBanners([{ ...banner, order: 5 }, { ...banner, id: 'b', order: 2 }]);
    expect(((await data(db, 'site/banners'))?.['list'] as { id: string }[]).map((b) => b.id)).toEqual(['b', 'a']);
    const added = await store.adminAddBanner({ banner: { ...banner, id: 'c' }, actor: ACTOR, now: NOW });
    expect(added.kind === 'written' && added.banners.map((b) => [b.id, b.order])).toEqual([['b', 1], ['a', 2], ['c', 3]]);
    await expect(store.adminAddBanner({ banner: { ...banner, id: 'c' }, actor: ACTOR, now: NOW })).rejects.toThrow();
  });
});

describe('the price transfer', () => {
  it('copies series, points, city rows, offers and banners to another project; twice changes nothing', async () => {
    const from = open();
    const to = open();
    await from.store.upsertSeries([series('t.a'), series('t.b')]);
    await from.store.upsertPoints([
      ...Array.from({ length: 700 }, (_, i) => ({ seriesId: 't.a', date: new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10), value: i })),
      { seriesId: 't.b', date: '2024-01-01', value: 7 },
    ]);
    await from.store.upsertCityPrices([{ city: 'pune', polymerType: 'PP', grade: 'ppRaffia', price: 100, date: '2025-01-06' }]);
    await from.store.upsertOffers([{ country: 'USA', date: '2025-03-03', data: { PP: { Raffia: 1 } } }]);
    await from.store.replaceBanners([{ id: 'a', title: 'A', subtitle: 's', href: '/', image: '/a.svg', alt: 'a', order: 3 }]);
    const source = createFirestorePriceTransfer(from.db);
    const target = createFirestorePriceTransfer(to.db);
    const kinds = ['series', 'points', 'cityPrices', 'offers', 'banners'] as const;
    const all = async (transfer: typeof source, kind: (typeof kinds)[number]) => {
      const out: unknown[] = [];
      for await (const page of transfer.exportRecords(kind)) out.push(...page);
      return out;
    };
    for (let round = 0; round < 2; round++) {
      for (const kind of kinds) {
        for await (const page of source.exportRecords(kind)) await target.importRecords(kind, page as never);
      }
    }
    for (const kind of kinds) expect(await all(target, kind)).toEqual(await all(source, kind));
    expect((await all(target, 'points')).length).toBe(701);
    expect(await to.store.extent('t.a')).toEqual(await from.store.extent('t.a'));
    expect(await to.store.latestCitySheets()).toEqual(await from.store.latestCitySheets());
    expect(() => source.exportRecords('users' as never as TransferKind as 'series')).toThrow();
    await expect(target.importRecords('audit' as never as 'series', [])).rejects.toThrow();
  });
});
