/**
 * Every price series the product keeps, derived from the catalog: one feedstock series per
 * sub-market, two historical series per polymer grade (Mumbai ex-works, CIF Nhava Sheva) and
 * the USD/INR rate. Ids are stable, URL-safe and built here only: the store, the API, the CSV
 * export and the generator all ask this module for them.
 */
import { allGrades, feedstocks, historicalSeries, type Feedstock, type Unit } from './catalog.ts';

export type SeriesFamily = 'feedstock' | 'historical' | 'fx';
export type Frequency = 'daily' | 'weekly';

export interface SeriesDef {
  /** e.g. `feedstock.naphtha.japan`, `historical.ppRaffia.mumbai`, `fx.usdinr`. */
  readonly id: string;
  readonly family: SeriesFamily;
  /** Feedstock slug, polymer grade key, or `USDINR`. */
  readonly product: string;
  /** Sub-market call value, historical series name (`Mumbai`, `CIF NS`) or `customs`. */
  readonly market: string;
  /** Grade key for historical series; empty otherwise. */
  readonly grade: string;
  readonly unit: Unit;
  readonly currency: 'USD' | 'INR' | 'RMB';
  readonly frequency: Frequency;
  /** Human label: "Naphtha · Japan", "PP Raffia · Mumbai ex-works (incl. GST)". */
  readonly label: string;
}

const slugPart = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

const currencyOf = (unit: Unit): SeriesDef['currency'] =>
  unit === 'Rs/Kg' || unit === 'INR/USD' ? 'INR' : unit === 'RMB/Mt' ? 'RMB' : 'USD';

export const feedstockSeriesId = (feedstockSlug: string, marketCall: string): string =>
  `feedstock.${slugPart(feedstockSlug)}.${slugPart(marketCall)}`;

export type HistoricalName = (typeof historicalSeries)[number]['name'];
export const historicalSeriesId = (gradeKey: string, name: HistoricalName): string =>
  `historical.${gradeKey}.${slugPart(name)}`;

export const FX_SERIES_ID = 'fx.usdinr';

export const feedstockSeries = (feedstock: Feedstock): SeriesDef[] =>
  feedstock.subMarkets.map((m) => ({
    id: feedstockSeriesId(feedstock.slug, m.call),
    family: 'feedstock',
    product: feedstock.slug,
    market: m.call,
    grade: '',
    unit: feedstock.unit,
    currency: currencyOf(feedstock.unit),
    frequency: 'daily',
    label: `${feedstock.name} · ${m.display}`,
  }));

export const allSeries: readonly SeriesDef[] = [
  ...feedstocks.flatMap(feedstockSeries),
  ...allGrades.flatMap(({ polymer, grade }) =>
    historicalSeries.map(
      (h): SeriesDef => ({
        id: historicalSeriesId(grade.key, h.name),
        family: 'historical',
        product: grade.key,
        market: h.name,
        grade: grade.key,
        unit: h.unit,
        currency: currencyOf(h.unit),
        frequency: 'weekly',
        label: `${polymer.slug} ${grade.name} · ${h.label}`,
      }),
    ),
  ),
  {
    id: FX_SERIES_ID,
    family: 'fx',
    product: 'USDINR',
    market: 'customs',
    grade: '',
    unit: 'INR/USD',
    currency: 'INR',
    frequency: 'daily',
    label: 'US dollar to Indian rupee',
  },
];

const byId = new Map(allSeries.map((s) => [s.id, s]));
export const findSeries = (id: string): SeriesDef | undefined => byId.get(id);
