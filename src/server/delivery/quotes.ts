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
