/**
 * The latest price of an instrument and the one before it, read through the Store port: a
 * series' two newest points, or a city sheet's row for the grade and the same row on the
 * sheet before (looked for up to CITY_LOOKBACK_DAYS back: sheets are revised about weekly).
 */
import { addDays } from '../../lib/dates.ts';
import type { Quote } from '../../lib/delivery/alerts.ts';
import type { Instrument } from '../../lib/delivery/instruments.ts';
import type { PriceStore } from '../store/prices.ts';

export interface InstrumentQuote {
  readonly latest: Quote | null;
  readonly previous: Quote | null;
}

export const CITY_LOOKBACK_DAYS = 14;
/** How far back a price "of a day" is looked for (a weekly series or sheet, a holiday run). */
export const DAY_LOOKBACK_DAYS = 21;

export type QuoteStore = Pick<PriceStore, 'latestPoints' | 'latestCitySheet' | 'citySheetOn' | 'points' | 'citySheetDates'>;

export async function quoteOf(store: Pick<PriceStore, 'latestPoints' | 'latestCitySheet' | 'citySheetOn'>, instrument: Instrument): Promise<InstrumentQuote> {
  if (instrument.source.kind === 'series') {
    const points = await store.latestPoints(instrument.source.seriesId, 2);
    const latest = points.at(-1) ?? null;
    return { latest, previous: points.length > 1 ? points[0]! : null };
  }
  const { city, grade } = instrument.source;
  const row = (await store.latestCitySheet(city)).find((r) => r.grade === grade);
  if (!row) return { latest: null, previous: null };
  const latest = { date: row.date, value: row.price };
  for (let back = 1; back <= CITY_LOOKBACK_DAYS; back++) {
    const earlier = (await store.citySheetOn(city, addDays(row.date, -back))).find((r) => r.grade === grade);
    if (earlier) return { latest, previous: { date: earlier.date, value: earlier.price } };
  }
  return { latest, previous: null };
}

/** Quotes of one run, each instrument read once (a daily run quotes the same prices for many users). */
export function quoteCache(store: Parameters<typeof quoteOf>[0]): (instrument: Instrument) => Promise<InstrumentQuote> {
  const cache = new Map<string, Promise<InstrumentQuote>>();
  return (instrument) => {
    let quote = cache.get(instrument.id);
    if (!quote) {
      quote = quoteOf(store, instrument);
      cache.set(instrument.id, quote);
    }
    return quote;
  };
}

/**
 * The price of a day: the last one published on or before `date` (within DAY_LOOKBACK_DAYS), and
 * the one before it (the bot's "kal ka bhav", "pp raffia 23 nov", "last week").
 */
export async function quoteOn(store: QuoteStore, instrument: Instrument, date: string): Promise<InstrumentQuote> {
  const from = addDays(date, -DAY_LOOKBACK_DAYS - CITY_LOOKBACK_DAYS);
  if (instrument.source.kind === 'series') {
    const points = (await store.points(instrument.source.seriesId, { from, to: date })).slice(-2);
    const latest = points.at(-1) ?? null;
    if (!latest || latest.date < addDays(date, -DAY_LOOKBACK_DAYS)) return { latest: null, previous: null };
    return { latest, previous: points.length > 1 ? points[0]! : null };
  }
  const { city, grade } = instrument.source;
  const dates = (await store.citySheetDates(city, { from, to: date })).toReversed();
  let latest: Quote | null = null;
  for (const day of dates) {
    const row = (await store.citySheetOn(city, day)).find((r) => r.grade === grade);
    if (!row) continue;
    if (!latest) {
      if (row.date < addDays(date, -DAY_LOOKBACK_DAYS)) return { latest: null, previous: null };
      latest = { date: row.date, value: row.price };
      continue;
    }
    return { latest, previous: { date: row.date, value: row.price } };
  }
  return { latest, previous: null };
}
