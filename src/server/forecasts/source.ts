/**
 * Where pages read forecasts and their scores: one small interface, so the pages do not care
 * what is behind it. The store-backed source reads a series' forecasts and scores from the
 * store (src/server/store/forecasts.ts). A forecast whose horizon has ended and that has no
 * score yet is scored on the spot and the score written (once: the next read finds it), so a
 * score appears when its horizon ends, not at the next hourly run. Answers are kept per series,
 * day and forecasts version (this process's writes), for at most a minute (other processes').
 */
import type { IsoDate } from '../../lib/dates.ts';
import type { Forecast } from '../../lib/forecasts/model.ts';
import type { Score } from '../../lib/forecasts/scoring.ts';
import type { Store } from '../store/index.ts';
import { scoreSeries } from './records.ts';

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

const CACHE_ENTRIES = 64;
const CACHE_MS = 60_000;

type SourceStore = Pick<Store, 'points' | 'version' | 'listForecasts' | 'listScores' | 'addForecasts' | 'putScores' | 'hasNoForecasts' | 'forecastsVersion'>;

export interface StoreSourceOptions {
  /** Settles when the store's forecasts are ready to read (the first start's seed). */
  readonly ready?: () => Promise<unknown>;
  /** The server's clock (scoredAt). */
  readonly now?: () => Date;
}

export function storeForecastSource(store: SourceStore, { ready = async () => undefined, now = () => new Date() }: StoreSourceOptions = {}): ForecastSource {
  const cache = new Map<string, { readonly at: number; readonly answer: Promise<SeriesForecasts> }>();

  async function read(seriesId: string, today: IsoDate): Promise<SeriesForecasts> {
    await ready();
    await scoreSeries(store, seriesId, today, now());
    const [forecasts, scores] = await Promise.all([store.listForecasts(seriesId), store.listScores(seriesId)]);
    return { forecasts, scores: new Map(scores.map((s) => [s.forecastId, s])) };
  }

  return {
    forSeries(seriesId, today) {
      const key = `${seriesId}|${today}|${store.forecastsVersion()}|${store.version()}`;
      const kept = cache.get(key);
      if (kept && Date.now() - kept.at < CACHE_MS) return kept.answer;
      const answer = read(seriesId, today);
      // A failed read is not kept.
      answer.catch(() => cache.delete(key));
      cache.delete(key);
      cache.set(key, { at: Date.now(), answer });
      if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      return answer;
    },
  };
}
