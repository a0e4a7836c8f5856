/**
 * The home page's data (pure): which series the Naphtha teaser and the subscribers' ticker
 * show, the teaser's shape (the recent trend scaled to 0–100, no figures: anonymous visitors
 * see it), the ticker's items (figures for subscribers, names and directions for the others),
 * and the banner carousel's rules.
 */
import { basisShort, placeOf } from './basis.ts';
import { addDays, type IsoDate } from './dates.ts';
import { listBasis, revisionsOnly, type Revision } from './producerPrices.ts';
import { decimalsOf, FIGURE_DECIMALS, priceValue, roundTo } from './numbers.ts';
import type { PricePoint } from './priceTypes.ts';
import { summarize, thin } from './series.ts';
import { feedstockSeriesId, findSeries, FX_SERIES_ID, historicalSeriesId, seriesBasis } from './seriesCatalog.ts';
import type { PriceUnit } from './units.ts';

/** The teaser: Naphtha C&F Japan over the last three months. */
export const TEASER_SERIES = feedstockSeriesId('Naphtha', 'japan');
export const TEASER_DAYS = 92;
export const TEASER_POINTS = 48;

/** The ticker's key series, in the order a trader reads them. */
export const TICKER_SERIES: readonly string[] = [
  feedstockSeriesId('Crude', 'brent'),
  feedstockSeriesId('Naphtha', 'japan'),
  feedstockSeriesId('Propylene', 'korea'),
  feedstockSeriesId('Ethylene', 'nea'),
  historicalSeriesId('ppRaffia', 'CIF NS'),
  historicalSeriesId('ppRaffia', 'Mumbai'),
  historicalSeriesId('hdpeFilm', 'Mumbai'),
  historicalSeriesId('pvcExtrusion', 'Mumbai'),
  FX_SERIES_ID,
];

/** What anonymous visitors may see of a trend: its direction and its shape, scaled 0–100. */
export interface Teaser {
  readonly label: string;
  readonly period: string;
  readonly direction: 'up' | 'down' | 'flat';
  /** Evenly thinned points, each 0 (the range's low) to 100 (its high), whole numbers. */
  readonly shape: readonly number[];
}

/** A move smaller than this share of the first value is "flat". */
const FLAT_SHARE = 0.01;

export function teaserOf(label: string, points: readonly PricePoint[]): Teaser {
  const values = thin(points, TEASER_POINTS).map((p) => p.value);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const first = values[0];
  const last = values.at(-1);
  const direction = first === undefined || last === undefined || Math.abs(last - first) < Math.abs(first) * FLAT_SHARE ? 'flat' : last > first ? 'up' : 'down';
  return {
    label,
    period: 'last three months',
    direction,
    shape: values.map((v) => (high === low ? 50 : Math.round(((v - low) / (high - low)) * 100))),
  };
}

export interface TickerItem {
  readonly id: string;
  readonly label: string;
  readonly unit: PriceUnit;
  /** The decimals its prices are quoted in. */
  readonly decimals: number;
  /** Where and on which terms ("CFR Japan"), and the short basis ("CFR Japan, US$/t"). */
  readonly place: string;
  readonly basis: string;
  readonly value: number;
  readonly date: IsoDate;
  readonly change: number | null;
  readonly changePct: number | null;
}

/**
 * What a visitor whose plan does not open the data sees of a ticker item: the series' name and
 * the direction of its latest move (against the point before), no figures. The figures are
 * what subscribers pay for; a name and an arrow say what the ticker is.
 */
export interface TickerDirection {
  readonly id: string;
  readonly label: string;
  readonly date: IsoDate;
  readonly direction: 'up' | 'down' | 'flat';
}

/** The ticker's answer: figures for plans that open the data, directions for everyone else. */
export type TickerAnswer = { readonly figures: true; readonly data: readonly TickerItem[] } | { readonly figures: false; readonly data: readonly TickerDirection[] };

/** An item without its figures (null when it has no previous point to move from). */
export function tickerDirection(item: TickerItem): TickerDirection | null {
  if (item.change === null) return null;
  return { id: item.id, label: item.label, date: item.date, direction: item.change > 0 ? 'up' : item.change < 0 ? 'down' : 'flat' };
}

/** A ticker item from a series' newest points (the last two at least); null without any. */
export function tickerItem(id: string, latest: readonly PricePoint[]): TickerItem | null {
  const series = findSeries(id);
  const summary = summarize(latest);
  if (!series || !summary) return null;
  const basis = seriesBasis(series);
  return {
    id,
    label: series.label,
    unit: basis.unit,
    decimals: decimalsOf(basis),
    place: placeOf(basis),
    basis: basisShort(basis),
    value: priceValue(summary.latest.value, basis),
    date: summary.latest.date,
    change: summary.change === null ? null : priceValue(summary.change, basis),
    changePct: summary.changePct === null ? null : roundTo(summary.changePct, FIGURE_DECIMALS),
  };
}

/** Producer revisions on the ticker: each producer's latest, of the last TICKER_REVISION_DAYS, at most TICKER_REVISIONS. */
export const TICKER_REVISIONS = 4;
export const TICKER_REVISION_DAYS = 14;

/**
 * The ticker's producer list-price revisions: each producer's latest revision (the last entered
 * when it revised several grades that day) effective within TICKER_REVISION_DAYS of `today`,
 * newest first. "Reliance (RIL) PP Raffia list 106.00 (ex-works Jamnagar) +1.50".
 */
export function revisionTickerItems(revisions: readonly Revision[], today: IsoDate): TickerItem[] {
  const since = addDays(today, -TICKER_REVISION_DAYS);
  const recent = revisionsOnly(revisions)
    .filter((r) => r.record.effective >= since && r.record.effective <= today)
    .sort((a, b) => (a.record.effective !== b.record.effective ? (a.record.effective < b.record.effective ? 1 : -1) : a.record.enteredAt < b.record.enteredAt ? 1 : a.record.enteredAt > b.record.enteredAt ? -1 : 0));
  const byProducer = new Map<string, Revision>();
  for (const r of recent) if (!byProducer.has(r.line.producer.id)) byProducer.set(r.line.producer.id, r);
  return [...byProducer.values()].slice(0, TICKER_REVISIONS).map((r) => {
    const basis = listBasis(r.line);
    return {
      id: `revision.${r.record.id}`,
      label: `${r.line.producer.name} ${r.line.gradeName} list`,
      unit: basis.unit,
      decimals: decimalsOf(basis),
      place: placeOf(basis),
      basis: basisShort(basis),
      value: priceValue(r.record.value, basis),
      date: r.record.effective,
      change: r.change,
      changePct: r.change === null || !r.previous ? null : roundTo((r.change / r.previous.value) * 100, FIGURE_DECIMALS),
    };
  });
}

/** Banner carousel: how long a slide stays before the next one. */
export const AUTO_ADVANCE_MS = 6000;

/** The slide after (or before) `index` among `count`, wrapping round. */
export const stepSlide = (index: number, count: number, step: 1 | -1): number => (count <= 0 ? 0 : (((index + step) % count) + count) % count);

/** The slide a track scrolled to `scrollLeft` shows (slides are `width` wide), within 0 … count − 1. */
export const slideAtScroll = (scrollLeft: number, width: number, count: number): number =>
  count <= 0 ? 0 : Math.min(count - 1, Math.max(0, Math.round(scrollLeft / Math.max(1, width))));

/**
 * Where the carousel is: the slide it shows, and the slide its own (smooth) move is still
 * heading for, or null when it is not moving by itself.
 */
export interface CarouselPosition {
  readonly index: number;
  readonly heading: number | null;
}

/**
 * The position once the track's scroll has settled at slide `at`. While the carousel's own move
 * is under way, a settled scroll is where the track passed (or a timer armed by a scroll before
 * the last click), never where anybody took it: it changes nothing until the move has arrived.
 * Otherwise it is a swipe or scroll by hand, and the slide follows it.
 */
export function afterScroll(position: CarouselPosition, at: number): CarouselPosition {
  if (position.heading !== null) return at === position.heading ? { index: position.index, heading: null } : position;
  return at === position.index ? position : { index: at, heading: null };
}

/** Auto-advance runs only when nobody has paused it, points at or focuses it, or asked for less motion, and the page is visible. */
export const autoAdvances = (state: { readonly reducedMotion: boolean; readonly paused: boolean; readonly hovered: boolean; readonly focused: boolean; readonly hidden: boolean; readonly count: number }): boolean =>
  !state.reducedMotion && !state.paused && !state.hovered && !state.focused && !state.hidden && state.count > 1;
