/**
 * Where pages read forecasts and their scores: one small interface, so the pages do not care
 * what is behind it.
 *
 * THIS PHASE: `demoForecastSource`, in memory. For a series it reads the store's prices and
 * generates the demo desk's year of calls (src/lib/forecasts/demo.ts), the baseline twin of
 * every base date they use plus the baseline from the latest price, and scores them all on
 * the spot (src/lib/forecasts/scoring.ts). Kept per series, day and price version (a price
 * write re-scores), computed with a turn of the event loop between fits.
 *
 * NEXT PHASE: a store-backed source with the same interface: forecasts and scores are records
 * of both stores (desk calls from the admin form and JSON endpoints, baselines recomputed when
 * prices land, scores made once and re-made only after a price correction), seeded with the
 * same demo generator.
 */
import { addDays, type IsoDate } from '../../lib/dates.ts';
import { baselineForecasts, type EtsEngine } from '../../lib/forecasts/baseline.ts';
import { DEMO_SKILL, demoDeskForecasts } from '../../lib/forecasts/demo.ts';
import type { Forecast } from '../../lib/forecasts/model.ts';
import { scoreFor, type Score } from '../../lib/forecasts/scoring.ts';
import { findSeries } from '../../lib/seriesCatalog.ts';
import type { Store } from '../store/index.ts';

export interface SeriesForecasts {
  /** Desk calls and baseline forecasts on the series, in no particular order. */
  readonly forecasts: readonly Forecast[];
  /** Scores by forecast id (a forecast without a score is open or awaiting a price). */
  readonly scores: ReadonlyMap<string, Score>;
}

export interface ForecastSource {
  /** Every forecast on a series and its score as of `today` (India's day). */
  forSeries(seriesId: string, today: IsoDate): Promise<SeriesForecasts>;
}

const EMPTY: SeriesForecasts = { forecasts: [], scores: new Map() };
const CACHE_ENTRIES = 64;
/** Baselines are "published" when that day's prices have landed: 18:00 IST. */
const BASELINE_TIME = 'T12:30:00.000Z';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function demoForecastSource(store: Pick<Store, 'points' | 'version'>, engine: EtsEngine, seed = 1): ForecastSource {
  const cache = new Map<string, Promise<SeriesForecasts>>();

  async function compute(seriesId: string, today: IsoDate): Promise<SeriesForecasts> {
    const series = findSeries(seriesId);
    if (!series) return EMPTY;
    // The calls' window, and two years before it for the flat band and the baseline's fit.
    const points = await store.points(seriesId, { from: addDays(today, -(DEMO_SKILL.days + 740)), to: today });
    const desk = demoDeskForecasts({ series, points, today, seed });
    const baseDates = [...new Set([...desk.map((f) => f.baseDate), ...(points.length > 0 ? [points.at(-1)!.date] : [])])];
    const baselines: Forecast[] = [];
    for (const date of baseDates) {
      await nextTurn();
      baselines.push(...baselineForecasts(series, points, engine, new Date(`${date}${BASELINE_TIME}`), date));
    }
    const forecasts = [...desk, ...baselines];
    const now = new Date();
    const scores = new Map<string, Score>();
    for (const f of forecasts) {
      const score = scoreFor(f, series.frequency, points, today, null, now);
      if (score) scores.set(f.id, score);
    }
    return { forecasts, scores };
  }

  return {
    forSeries(seriesId, today) {
      const key = `${seriesId}|${today}|${store.version()}`;
      let entry = cache.get(key);
      if (!entry) {
        entry = compute(seriesId, today);
        // A failed read is not kept.
        entry.catch(() => cache.delete(key));
        cache.set(key, entry);
        if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      }
      return entry;
    },
  };
}
