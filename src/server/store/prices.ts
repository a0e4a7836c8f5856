/**
 * The prices part of the Store port: series and their points, city-wise sheets,
 * international offers and carousel banners. Dates are ISO `YYYY-MM-DD` everywhere here; the
 * legacy text forms exist only at the API edge (src/lib/series.ts).
 */
import type { CityPriceRow, OfferData, OfferDay, OfferRanges, OfferRecord, PricePoint } from '../../lib/priceTypes.ts';
import type { SeriesDef } from '../../lib/seriesCatalog.ts';

export type { CityPriceRow, OfferData, OfferDay, OfferRanges, OfferRecord, PricePoint, SeriesDef };

export interface PointRow extends PricePoint {
  readonly seriesId: string;
}

/** A closed ISO date range; either end may be open. */
export interface DateRange {
  readonly from?: IsoDateText | undefined;
  readonly to?: IsoDateText | undefined;
}
type IsoDateText = string;

export interface Banner {
  readonly id: string;
  readonly title: string;
  readonly subtitle: string;
  readonly href: string;
  readonly image: string;
  readonly alt: string;
  readonly order: number;
}

export interface SeriesExtent {
  readonly first: IsoDateText;
  readonly last: IsoDateText;
  readonly count: number;
}

export interface PriceStore {
  /** Creates or updates series definitions (by id), in one transaction. */
  upsertSeries(series: readonly SeriesDef[]): Promise<void>;
  getSeries(id: string): Promise<SeriesDef | null>;
  listSeries(): Promise<SeriesDef[]>;
  /**
   * Writes points, idempotent by (series, date): a second write of the same date replaces the
   * value. All rows land in one transaction, or none do. Returns how many rows were written.
   */
  upsertPoints(rows: readonly PointRow[]): Promise<number>;
  /** Points of one series inside the range, ascending by date (one indexed range query). */
  points(seriesId: string, range?: DateRange): Promise<PricePoint[]>;
  /** The newest `count` points, ascending. */
  latestPoints(seriesId: string, count: number): Promise<PricePoint[]>;
  /** First and last date and number of points; null for a series without points. */
  extent(seriesId: string): Promise<SeriesExtent | null>;

  /** Writes city rows, idempotent by (city, grade, date), in one transaction. */
  upsertCityPrices(rows: readonly CityPriceRow[]): Promise<number>;
  /** Each city's newest sheet (every city the store has rows for). */
  latestCitySheets(): Promise<CityPriceRow[]>;
  /** The newest sheet of one city (slug), or [] when the city has none. */
  latestCitySheet(city: string): Promise<CityPriceRow[]>;
  /** One city's sheet of one date, or [] (the admin edits any date). */
  citySheetOn(city: string, date: string): Promise<CityPriceRow[]>;
  /** The dates a city has a sheet for inside the range, ascending (the history's date picker). */
  citySheetDates(city: string, range: DateRange): Promise<IsoDateText[]>;
  /** One grade's rows in the given cities inside the range, ascending by date then city. */
  cityGradeHistory(grade: string, cities: readonly string[], range: DateRange): Promise<CityPriceRow[]>;

  /**
   * Writes offers, idempotent by (country, date), in one transaction; a day's `ranges` give the
   * ends of its range cells, whose value in `data` must be their mid (checks.ts, `checkOffer`).
   */
  upsertOffers(offers: readonly OfferRecord[]): Promise<number>;
  /** A country's offers in one month, ascending by date. */
  offersInMonth(country: string, year: number, month: number): Promise<OfferRecord[]>;
  /** The newest month (year, month) with offers for a country, or null. */
  latestOfferMonth(country: string): Promise<{ year: number; month: number } | null>;

  /** Replaces the banner list in one transaction. */
  replaceBanners(banners: readonly Banner[]): Promise<void>;
  listBanners(): Promise<Banner[]>;

  /** True when no price point has been stored yet (the cue to seed demo data). */
  hasNoPrices(): Promise<boolean>;

  /**
   * A number that changes whenever this process writes price data. Response caches key on it
   * (with a short TTL for writes by other processes sharing a libSQL server).
   */
  version(): number;
}
