/**
 * Firestore adapter of the price store (see ../prices.ts); the layout is in ./priceDocs.ts:
 *
 * - `priceSeries/{seriesId}`: SeriesDef + summary `first`, `last`, `count` (moved on in the
 *   transaction of every point write/delete); `priceSeries/{seriesId}/years/{yyyy}`:
 *   `{ seriesId, year, dates[], values[], count, first, last }`, emptied years deleted.
 *   A chart read reads only the year documents of its range (`getAll`; an open end is closed
 *   with the series document's first/last), `latestPoints` reads the newest years backwards,
 *   `extent` is the series document, `hasNoPrices` is `priceSeries where count > 0 limit 1`.
 * - `citySheets/{city}` `{ city, latestDate, latestRows }` + `citySheets/{city}/dates/{date}`
 *   `{ city, date, rows[] }`: `latestCitySheets` is one query, `latestCitySheet` one read.
 * - `offers/{country}` `{ country }` + `offers/{country}/months/{yyyy-mm}` `{ country, month,
 *   days[] }`: `offersInMonth` is one read, `latestOfferMonth` one `orderBy('month','desc')`.
 * - `site/banners` `{ list }`.
 *
 * Bulk upserts validate every row first (what SQLite's constraints would refuse: non-finite
 * numbers, dates not shaped YYYY-MM-DD, points of an unknown series, ids no document can
 * have), then write in transactions of at most DOCS_PER_COMMIT documents. SQLite writes one
 * transaction; here a batch larger than one commit is several, so an infrastructure failure
 * part-way leaves the earlier commits in place. Every such write is an idempotent upsert:
 * running it again completes it.
 */
import type { DocumentSnapshot, Firestore, Query } from 'firebase-admin/firestore';
import type { SeriesDef } from '../../../lib/seriesCatalog.ts';
import type { BannerAdminStore } from '../bannerAdmin.ts';
import type { PriceAdminStore } from '../priceAdmin.ts';
import type { CityPriceRow, OfferDay, OfferRecord, PricePoint, PriceStore } from '../prices.ts';
import { createFirestoreBannerAdminStore } from './bannerAdmin.ts';
import { checkDate, checkOffer, checkQuote } from '../checks.ts';
import { DOCS_PER_COMMIT, chunks, docId, transact } from './database.ts';
import { createFirestorePriceAdminStore } from './priceAdmin.ts';
import {
  BANNERS_DOC,
  CITY_DATES,
  CITY_SHEETS,
  OFFER_MONTHS,
  SERIES,
  YEARS,
  bannersDocOf,
  bannersOf,
  byText,
  checkBannerIds,
  checkPointRows,
  cityDateDocOf,
  cityDateRef,
  cityDocOf,
  cityRef,
  cityRowsOf,
  countryRef,
  monthDays,
  monthDocOf,
  monthKey,
  monthRef,
  storedOfferDay,
  planPoints,
  pointsOfYear,
  readPlan,
  seriesDefOf,
  seriesDocOf,
  seriesRef,
  sheetRowsOf,
  sortedSheet,
  splitPlan,
  summaryOf,
  usableId,
  writePlan,
  yearKey,
  yearOf,
  yearRef,
  type SheetRow,
} from './priceDocs.ts';

/** Widest range of years a closed chart range reads without asking the series document first. */
const MAX_BLIND_YEARS = 30;

export function createFirestorePriceStore(db: Firestore): PriceStore & PriceAdminStore & BannerAdminStore {
  let version = 0;
  const bump = (): void => {
    version++;
  };
  /** Bumps the version after a write settles (also after a failed one: cheap and safe). */
  const writing = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } finally {
      bump();
    }
  };

  const seriesSnapshot = async (id: string): Promise<DocumentSnapshot | null> => {
    if (!usableId(id)) return null;
    const snapshot = await seriesRef(db, id).get();
    return snapshot.exists ? snapshot : null;
  };

  return {
    ...createFirestorePriceAdminStore(db, bump),
    ...createFirestoreBannerAdminStore(db, bump),
    version: () => version,

    async upsertSeries(series) {
      if (series.length === 0) return;
      for (const s of series) docId(s.id);
      const byId = new Map<string, SeriesDef>();
      for (const s of series) byId.set(s.id, s);
      await writing(async () => {
        for (const part of chunks([...byId.values()], DOCS_PER_COMMIT)) {
          await transact(db, async (tx) => {
            const refs = part.map((s) => seriesRef(db, s.id));
            const snapshots = await tx.getAll(...refs);
            part.forEach((s, i) => tx.set(refs[i]!, seriesDocOf(s, summaryOf(snapshots[i]!.data()))));
          });
        }
      });
    },

    async getSeries(id) {
      const snapshot = await seriesSnapshot(id);
      return snapshot ? seriesDefOf(snapshot.data()!) : null;
    },

    async listSeries() {
      const snapshot = await db.collection(SERIES).get();
      return snapshot.docs.map((doc) => seriesDefOf(doc.data())).sort((a, b) => byText(a.id, b.id));
    },

    async upsertPoints(rows) {
      checkPointRows(rows);
      if (rows.length === 0) return 0;
      const plan = planPoints(rows);
      return writing(async () => {
        // A point needs its series (SQLite's foreign key): refused before the first write.
        const ids = [...plan.keys()];
        for (const part of chunks(ids, DOCS_PER_COMMIT)) {
          const missing = (await db.getAll(...part.map((id) => seriesRef(db, id)))).find((s) => !s.exists);
          if (missing) throw new Error(`FOREIGN KEY constraint failed: no series ${JSON.stringify(missing.id)}`);
        }
        for (const part of splitPlan(plan)) {
          await transact(db, async (tx) => writePlan(db, tx, part, await readPlan(db, tx, part)));
        }
        return rows.length;
      });
    },

    async points(seriesId, range = {}) {
      if (!usableId(seriesId)) return [];
      const from = range.from ?? '0000-00-00';
      const to = range.to ?? '9999-99-99';
      if (from > to) return [];
      let fromYear = range.from === undefined ? Number.NaN : yearOf(range.from);
      let toYear = range.to === undefined ? Number.NaN : yearOf(range.to);
      if (!Number.isInteger(fromYear) || !Number.isInteger(toYear) || toYear - fromYear > MAX_BLIND_YEARS) {
        // An open (or very wide) end is closed with the series' own first and last date.
        const summary = summaryOf((await seriesSnapshot(seriesId))?.data());
        if (summary.count === 0) return [];
        const firstYear = yearOf(summary.first!);
        const lastYear = yearOf(summary.last!);
        fromYear = Number.isInteger(fromYear) ? Math.max(fromYear, firstYear) : firstYear;
        toYear = Number.isInteger(toYear) ? Math.min(toYear, lastYear) : lastYear;
      }
      if (fromYear > toYear) return [];
      const refs = [];
      for (let year = fromYear; year <= toYear; year++) refs.push(yearRef(db, seriesId, year));
      const snapshots = await db.getAll(...refs);
      return snapshots.flatMap((s) => pointsOfYear(s)).filter((p) => p.date >= from && p.date <= to);
    },

    async latestPoints(seriesId, count) {
      const wanted = Math.max(0, Math.floor(count));
      if (!(wanted > 0) || !usableId(seriesId)) return [];
      const years = db.collection(SERIES).doc(seriesId).collection(YEARS);
      const newestFirst: PricePoint[][] = [];
      let have = 0;
      let below: number | null = null;
      for (let batch = 1; ; batch = Math.min(batch * 2, 16)) {
        const query: Query = below === null ? years.orderBy('year', 'desc') : years.where('year', '<', below).orderBy('year', 'desc');
        const snapshot = await query.limit(batch).get();
        for (const doc of snapshot.docs) {
          const points = pointsOfYear(doc);
          newestFirst.push(points);
          have += points.length;
          below = Number(doc.get('year'));
          if (have >= wanted) break;
        }
        if (have >= wanted || snapshot.size < batch) break;
      }
      const ascending = newestFirst.reverse().flat();
      return ascending.slice(Math.max(0, ascending.length - wanted));
    },

    async extent(seriesId) {
      const summary = summaryOf((await seriesSnapshot(seriesId))?.data());
      return summary.count === 0 ? null : { first: summary.first!, last: summary.last!, count: summary.count };
    },

    async upsertCityPrices(rows) {
      for (const r of rows) {
        docId(r.city);
        checkDate(r.date, `city ${r.city}`);
        checkQuote({ value: r.price, low: r.low, high: r.high }, `${r.city} ${r.grade} on ${r.date}`);
      }
      if (rows.length === 0) return 0;
      // city → date → grade → row (a later row wins)
      const plan = new Map<string, Map<string, Map<string, SheetRow>>>();
      for (const r of rows) {
        let dates = plan.get(r.city);
        if (!dates) plan.set(r.city, (dates = new Map()));
        let grades = dates.get(r.date);
        if (!grades) dates.set(r.date, (grades = new Map()));
        grades.set(r.grade, { polymerType: r.polymerType, grade: r.grade, price: r.price, low: r.low, high: r.high });
      }
      const units = [...plan].flatMap(([city, dates]) => [...dates.keys()].map((date) => ({ city, date })));
      return writing(async () => {
        // Half a commit of date documents leaves room for their city documents.
        for (const part of chunks(units, Math.floor(DOCS_PER_COMMIT / 2))) {
          await transact(db, async (tx) => {
            const cities = [...new Set(part.map((u) => u.city))];
            const snapshots = await tx.getAll(...cities.map((c) => cityRef(db, c)), ...part.map((u) => cityDateRef(db, u.city, u.date)));
            const latest = new Map<string, { date: string; rows: SheetRow[] } | null>();
            cities.forEach((city, i) => {
              const s = snapshots[i]!;
              latest.set(city, s.exists ? { date: String(s.get('latestDate')), rows: sheetRowsOf(s.get('latestRows')) } : null);
            });
            part.forEach(({ city, date }, i) => {
              const stored = new Map(sheetRowsOf(snapshots[cities.length + i]!.get('rows')).map((r) => [r.grade, r]));
              for (const [grade, row] of plan.get(city)!.get(date)!) stored.set(grade, row);
              const sheet = sortedSheet(stored);
              tx.set(cityDateRef(db, city, date), cityDateDocOf(city, date, sheet));
              const current = latest.get(city);
              if (!current || date >= current.date) latest.set(city, { date, rows: sheet });
            });
            for (const city of cities) {
              const newest = latest.get(city)!;
              tx.set(cityRef(db, city), cityDocOf(city, newest.date, newest.rows));
            }
          });
        }
        return rows.length;
      });
    },

    async latestCitySheets() {
      const snapshot = await db.collection(CITY_SHEETS).get();
      return snapshot.docs
        .map((doc) => ({ city: String(doc.get('city')), date: String(doc.get('latestDate')), rows: sheetRowsOf(doc.get('latestRows')) }))
        .sort((a, b) => byText(a.city, b.city))
        .flatMap((c) => cityRowsOf(c.city, c.date, c.rows));
    },

    async latestCitySheet(city) {
      if (!usableId(city)) return [];
      const snapshot = await cityRef(db, city).get();
      return snapshot.exists ? cityRowsOf(city, String(snapshot.get('latestDate')), sheetRowsOf(snapshot.get('latestRows'))) : [];
    },

    async citySheetOn(city, date): Promise<CityPriceRow[]> {
      if (!usableId(city) || !usableId(date)) return [];
      const snapshot = await cityDateRef(db, city, date).get();
      return snapshot.exists ? cityRowsOf(city, date, sheetRowsOf(snapshot.get('rows'))) : [];
    },

    async citySheetDates(city, range) {
      if (!usableId(city)) return [];
      const snapshot = await cityRef(db, city).collection(CITY_DATES).where('date', '>=', range.from ?? '0000-00-00').where('date', '<=', range.to ?? '9999-99-99').orderBy('date').select('date').get();
      return snapshot.docs.map((doc) => String(doc.get('date')));
    },

    async cityGradeHistory(grade, cities, range) {
      // A sheet document per city and date: each city's dates in the range, read whole.
      const perCity = await Promise.all(
        cities.filter(usableId).map(async (city) => {
          const snapshot = await cityRef(db, city).collection(CITY_DATES).where('date', '>=', range.from ?? '0000-00-00').where('date', '<=', range.to ?? '9999-99-99').orderBy('date').get();
          return snapshot.docs.flatMap((doc) => cityRowsOf(city, String(doc.get('date')), sheetRowsOf(doc.get('rows')).filter((r) => r.grade === grade)));
        }),
      );
      return perCity.flat().sort((a, b) => byText(a.date, b.date) || byText(a.city, b.city));
    },

    async upsertOffers(offers) {
      const checked = offers.map((o) => {
        docId(o.country);
        checkDate(o.date, `offers of ${o.country}`);
        return { country: o.country, date: o.date, day: checkOffer(o, `offers of ${o.country} on ${o.date}`) };
      });
      if (offers.length === 0) return 0;
      // country → month → date → day (a later record wins)
      const plan = new Map<string, Map<string, Map<string, OfferDay>>>();
      for (const o of checked) {
        let months = plan.get(o.country);
        if (!months) plan.set(o.country, (months = new Map()));
        let days = months.get(monthKey(o.date));
        if (!days) months.set(monthKey(o.date), (days = new Map()));
        days.set(o.date, o.day);
      }
      const units = [...plan].flatMap(([country, months]) => [...months.keys()].map((month) => ({ country, month })));
      return writing(async () => {
        for (const part of chunks(units, Math.floor(DOCS_PER_COMMIT / 2))) {
          await transact(db, async (tx) => {
            const snapshots = await tx.getAll(...part.map((u) => monthRef(db, u.country, u.month)));
            part.forEach(({ country, month }, i) => {
              const days = monthDays(snapshots[i]);
              for (const [date, data] of plan.get(country)!.get(month)!) days.set(date, data);
              tx.set(monthRef(db, country, month), monthDocOf(country, month, days));
            });
            for (const country of new Set(part.map((u) => u.country))) tx.set(countryRef(db, country), { country });
          });
        }
        return offers.length;
      });
    },

    async offersInMonth(country, year, month): Promise<OfferRecord[]> {
      const key = `${yearKey(year)}-${String(month).padStart(2, '0')}`;
      if (!usableId(country) || !usableId(key)) return [];
      const snapshot = await monthRef(db, country, key).get();
      if (!snapshot.exists) return [];
      return ((snapshot.get('days') ?? []) as { date: string; entries: unknown }[])
        .map((day) => ({ country, date: String(day.date), ...storedOfferDay(day.entries) }))
        .sort((a, b) => byText(a.date, b.date));
    },

    async latestOfferMonth(country) {
      if (!usableId(country)) return null;
      const snapshot = await countryRef(db, country).collection(OFFER_MONTHS).orderBy('month', 'desc').limit(1).get();
      const month = snapshot.docs[0]?.get('month') as string | undefined;
      if (month === undefined) return null;
      return { year: Number(month.slice(0, 4)), month: Number(month.slice(5, 7)) };
    },

    async replaceBanners(banners) {
      checkBannerIds(banners);
      await writing(() => transact(db, async (tx) => {
        tx.set(db.doc(BANNERS_DOC), bannersDocOf(banners));
      }));
    },

    async listBanners() {
      return bannersOf(await db.doc(BANNERS_DOC).get());
    },

    async hasNoPrices() {
      return (await db.collection(SERIES).where('count', '>', 0).limit(1).get()).empty;
    },
  };
}
