/**
 * The forecasts' work over the store (src/server/store/forecasts.ts): the demo desk's year of
 * calls written once on a fresh start, the baselines refreshed after a price write, and the
 * scores made once when a horizon ends and re-made only when the price they rest on changed.
 * Fits and scoring are pure (src/lib/forecasts/); this module reads prices, calls them and
 * writes what changed, with a turn of the event loop between series so a server keeps answering.
 */
import { addDays, isoDateOf, type IsoDate } from '../../lib/dates.ts';
import { baselineForecasts, type EtsEngine } from '../../lib/forecasts/baseline.ts';
import { forecastSeriesIds } from '../../lib/forecasts/coverage.ts';
import { DEMO_SKILL, demoDeskForecasts } from '../../lib/forecasts/demo.ts';
import type { Forecast } from '../../lib/forecasts/model.ts';
import { actualWindow, scoreFor, touchedBy } from '../../lib/forecasts/scoring.ts';
import { allSeries, findSeries } from '../../lib/seriesCatalog.ts';
import type { Store } from '../store/index.ts';
import { scoreRecordOf, type ScoreRecord } from '../store/forecasts.ts';

/** Baselines are "published" when that day's prices have landed: 18:00 IST. */
export const BASELINE_TIME = 'T12:30:00.000Z';
/** Two years of prices before a base date: the flat band's look-back and the baseline's fit window. */
const FIT_DAYS = 740;

export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

type ForecastStoreParts = Pick<Store, 'points' | 'listForecasts' | 'listScores' | 'addForecasts' | 'putScores' | 'hasNoForecasts'>;

/**
 * The demo desk's calls on one series as of `today` (src/lib/forecasts/demo.ts), the baseline
 * twin of every base date they use plus the baseline from the latest price, and the scores of
 * those that can be scored today. Pure but for the fits' turns of the event loop.
 */
export async function demoForecastsOf(store: Pick<Store, 'points'>, engine: EtsEngine, seriesId: string, today: IsoDate, now: Date, seed = 1): Promise<{ forecasts: Forecast[]; scores: ScoreRecord[] }> {
  const series = findSeries(seriesId);
  if (!series) return { forecasts: [], scores: [] };
  const points = await store.points(seriesId, { from: addDays(today, -(DEMO_SKILL.days + FIT_DAYS)), to: today });
  const desk = demoDeskForecasts({ series, points, today, seed });
  const baseDates = [...new Set([...desk.map((f) => f.baseDate), ...(points.length > 0 ? [points.at(-1)!.date] : [])])];
  const baselines: Forecast[] = [];
  for (const date of baseDates) {
    await nextTurn();
    baselines.push(...baselineForecasts(series, points, engine, new Date(`${date}${BASELINE_TIME}`), date));
  }
  // The generator dates a call 16:30 IST of its base date and a baseline 18:00 IST: early in the
  // Indian day that is still to come. Nothing is published after the seed itself.
  const at = now.toISOString();
  const forecasts = [...desk, ...baselines].map((f) => (f.publishedAt > at ? { ...f, publishedAt: at } : f));
  const scores: ScoreRecord[] = [];
  for (const f of forecasts) {
    const score = scoreFor(f, series.frequency, points, today, null, now);
    if (score) scores.push(scoreRecordOf(score, seriesId));
  }
  return { forecasts, scores };
}

/**
 * Writes the demo desk's year of calls on every series the pages show (forecastSeriesIds),
 * with their baselines and scores, into a store that has no forecast yet. Scores first and
 * forecasts last: "no forecast yet" is how a start knows to seed, so a seed cut short is run
 * again whole (every write is idempotent). Returns what it wrote, or null when the store had
 * forecasts already.
 */
export async function seedDemoForecasts(store: ForecastStoreParts, engine: EtsEngine, now: Date, today: IsoDate, seed = 1): Promise<{ forecasts: number; scores: number } | null> {
  if (!(await store.hasNoForecasts())) return null;
  const forecasts: Forecast[] = [];
  const scores: ScoreRecord[] = [];
  for (const seriesId of forecastSeriesIds) {
    const made = await demoForecastsOf(store, engine, seriesId, today, now, seed);
    forecasts.push(...made.forecasts);
    scores.push(...made.scores);
  }
  await store.putScores(scores);
  await store.addForecasts(forecasts);
  return { forecasts: forecasts.length, scores: scores.length };
}

/**
 * The baseline from each series' latest price (three horizons), added where it is not there
 * yet; one series at a time with a turn of the event loop between (each fit is ≤ 25 ms CPU).
 * Series without forecasts on the pages are skipped: nobody reads a baseline of theirs.
 */
export async function refreshBaselines(store: ForecastStoreParts, engine: EtsEngine, seriesIds: readonly string[], now: Date): Promise<number> {
  let added = 0;
  for (const seriesId of seriesIds) {
    const series = findSeries(seriesId);
    if (!series || !forecastSeriesIds.includes(seriesId)) continue;
    await nextTurn();
    const today = isoDateOf(now);
    const points = await store.points(seriesId, { from: addDays(today, -FIT_DAYS), to: today });
    added += await store.addForecasts(baselineForecasts(series, points, engine, now));
  }
  return added;
}

/**
 * Scores a series' forecasts on `today`: those whose horizon has ended and have no score yet
 * (made once), and, when `changedDates` are given (a price write), those whose actual window
 * holds one of them (re-scored only if the price they rest on changed; `scoreFor` returns the
 * very record it was given otherwise). Writes only new or changed scores; returns how many.
 */
export async function scoreSeries(store: ForecastStoreParts, seriesId: string, today: IsoDate, now: Date, changedDates: readonly IsoDate[] = []): Promise<number> {
  const series = findSeries(seriesId);
  if (!series) return 0;
  const [forecasts, kept] = await Promise.all([store.listForecasts(seriesId), store.listScores(seriesId)]);
  const scores = new Map(kept.map((s) => [s.forecastId, s]));
  const due = forecasts.filter((f) => f.endDate <= today && (!scores.has(f.id) || touchedBy(f, series.frequency, changedDates)));
  if (due.length === 0) return 0;
  const from = due.reduce((min, f) => (actualWindow(f, series.frequency).from < min ? actualWindow(f, series.frequency).from : min), today);
  const points = await store.points(seriesId, { from, to: today });
  const written: ScoreRecord[] = [];
  for (const f of due) {
    const previous = scores.get(f.id) ?? null;
    const score = scoreFor(f, series.frequency, points, today, previous, now);
    if (score && score !== previous) written.push(scoreRecordOf(score, seriesId));
  }
  if (written.length > 0) await store.putScores(written);
  return written.length;
}

/**
 * The hourly run: every series' forecasts whose horizon has ended and that have no score yet
 * are scored (a page read scores its own series' as well: source.ts). One series at a time.
 */
export async function scoreEndedForecasts(store: ForecastStoreParts, now: Date): Promise<number> {
  const today = isoDateOf(now);
  let scored = 0;
  for (const series of allSeries) {
    await nextTurn();
    scored += await scoreSeries(store, series.id, today, now);
  }
  return scored;
}
