/**
 * Every price series the product keeps, derived from the catalog: one feedstock series per
 * sub-market, two historical series per polymer grade (Mumbai ex-works, CIF Nhava Sheva) and
 * the US$/INR reference rate. Ids are stable, URL-safe and built here only: the store, the API,
 * the CSV export and the generator all ask this module for them, and for each series' basis
 * (`seriesBasis`), which the catalog declares.
 */
import type { Basis } from './basis.ts';
import { allGrades, feedstocks, historicalSeries, usdInrReferenceBasis, type Feedstock } from './catalog.ts';
import { UNIT_FACTS, type PriceUnit } from './units.ts';

export type SeriesFamily = 'feedstock' | 'historical' | 'fx';
/** How often a series has a point (its basis says when it is published). */
export type Frequency = 'daily' | 'weekly';

export interface SeriesDef {
  /** e.g. `feedstock.naphtha.japan`, `historical.ppRaffia.mumbai`, `fx.usdinr`. */
  readonly id: string;
  readonly family: SeriesFamily;
  /** Feedstock slug, polymer grade key, or `USDINR`. */
  readonly product: string;
  /** Sub-market call value, historical series name (`Mumbai`, `CIF NS`) or `reference`. */
  readonly market: string;
  /** Grade key for historical series; empty otherwise. */
  readonly grade: string;
  readonly unit: PriceUnit;
  readonly currency: 'USD' | 'INR' | 'RMB';
  readonly frequency: Frequency;
  /** Human label: "Naphtha · Japan", "PP Raffia · Mumbai ex-works (incl. GST)". */
  readonly label: string;
}

const slugPart = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** A series' frequency is its basis' publication frequency, which for a series is daily or weekly. */
function seriesFrequency(basis: Basis): Frequency {
  const frequency = basis.publication.frequency;
  if (frequency !== 'daily' && frequency !== 'weekly') throw new Error(`a price series is published daily or weekly, not ${frequency}`);
  return frequency;
}

export const feedstockSeriesId = (feedstockSlug: string, marketCall: string): string =>
  `feedstock.${slugPart(feedstockSlug)}.${slugPart(marketCall)}`;

export type HistoricalName = (typeof historicalSeries)[number]['name'];
export const historicalSeriesId = (gradeKey: string, name: HistoricalName): string =>
  `historical.${gradeKey}.${slugPart(name)}`;

export const FX_SERIES_ID = 'fx.usdinr';

const bases = new Map<string, Basis>();

/** A series with its basis noted (the store keeps the SeriesDef fields; the basis stays in the catalog). */
function define(def: Omit<SeriesDef, 'unit' | 'currency' | 'frequency'>, basis: Basis): SeriesDef {
  bases.set(def.id, basis);
  return { ...def, unit: basis.unit, currency: UNIT_FACTS[basis.unit].currency, frequency: seriesFrequency(basis) };
}

export const feedstockSeries = (feedstock: Feedstock): SeriesDef[] =>
  feedstock.subMarkets.map((m) =>
    define({ id: feedstockSeriesId(feedstock.slug, m.call), family: 'feedstock', product: feedstock.slug, market: m.call, grade: '', label: `${feedstock.name} · ${m.display}` }, m.basis),
  );

export const allSeries: readonly SeriesDef[] = [
  ...feedstocks.flatMap(feedstockSeries),
  ...allGrades.flatMap(({ polymer, grade }) =>
    historicalSeries.map((h) =>
      define({ id: historicalSeriesId(grade.key, h.name), family: 'historical', product: grade.key, market: h.name, grade: grade.key, label: `${polymer.slug} ${grade.name} · ${h.label}` }, h.basis),
    ),
  ),
  define({ id: FX_SERIES_ID, family: 'fx', product: 'USDINR', market: 'reference', grade: '', label: 'US dollar to Indian rupee' }, usdInrReferenceBasis),
];

const byId = new Map(allSeries.map((s) => [s.id, s]));
export const findSeries = (id: string): SeriesDef | undefined => byId.get(id);

/** The basis of a catalog series (every series has one: tests/unit/basis.test.ts walks them). */
export function seriesBasis(series: SeriesDef | string): Basis {
  const id = typeof series === 'string' ? series : series.id;
  const basis = bases.get(id);
  if (!basis) throw new Error(`no basis for series ${id}`);
  return basis;
}
