/**
 * Forecasts and their scores (the Store port's part; the domain is src/lib/forecasts/, the
 * shapes docs/forecasts.md). A forecast is written once and never rewritten: the desk's through
 * `publishForecast` (audited, in the same commit), the baseline's and the seed's through
 * `addForecasts` (a forecast of that id already there is kept as it is, except an unscored
 * baseline made again from a corrected price, which replaces it). A score is one record
 * per forecast, rewritten only when `scoreFor` made a new revision (a price correction).
 */
import type { Forecast } from '../../lib/forecasts/model.ts';
import type { Score } from '../../lib/forecasts/scoring.ts';
import type { AuditActor, AuditEntry } from './audit.ts';

/** A score as the store keeps it: with its forecast's series, which lists read it by. */
export interface ScoreRecord extends Score {
  readonly seriesId: string;
}

export const scoreRecordOf = (score: Score, seriesId: string): ScoreRecord => ({ ...score, seriesId });

/** The audit log's name of a forecast. */
export const forecastTarget = (id: string): string => `forecast:${id}`;

export type PublishResult = { readonly kind: 'published'; readonly entry: AuditEntry } | { readonly kind: 'exists' };

export interface ForecastStore {
  /** Every forecast on a series (desk and baseline), oldest publication first. */
  listForecasts(seriesId: string): Promise<Forecast[]>;
  getForecast(id: string): Promise<Forecast | null>;
  /** The scores of the forecasts on a series. */
  listScores(seriesId: string): Promise<ScoreRecord[]>;
  /** A desk forecast and its audit entry, in one commit; `exists` (nothing written) when its id is taken. */
  publishForecast(forecast: Forecast, by: { readonly actor: AuditActor; readonly now: Date }): Promise<PublishResult>;
  /**
   * Adds forecasts whose ids are not there yet (baselines, the seed), and replaces an unscored
   * baseline made again with other numbers (its base price was corrected); returns how many were
   * written.
   */
  addForecasts(forecasts: readonly Forecast[]): Promise<number>;
  /** Writes scores whole (first scores and re-scores); returns how many. */
  putScores(scores: readonly ScoreRecord[]): Promise<number>;
  /** True when no forecast has been stored yet (the cue to seed the demo desk). */
  hasNoForecasts(): Promise<boolean>;
  /** A number that changes whenever this process writes forecasts or scores (the pages' cache keys on it). */
  forecastsVersion(): number;
}

/** Throws (RangeError) for a forecast no store may hold. */
export function checkForecast(f: Forecast): void {
  if (typeof f.id !== 'string' || !f.id || f.id.includes('/')) throw new RangeError(`not a forecast id: ${JSON.stringify(f.id)}`);
  if (typeof f.seriesId !== 'string' || !f.seriesId) throw new RangeError(`forecast ${f.id}: no series`);
  for (const field of ['low', 'high', 'baseValue', 'flatBandPct'] as const) {
    if (typeof f[field] !== 'number' || !Number.isFinite(f[field])) throw new RangeError(`forecast ${f.id}: ${field} is not a finite number`);
  }
  if (!(f.low < f.high)) throw new RangeError(`forecast ${f.id}: low must be below high`);
  if (!(f.baseDate < f.endDate)) throw new RangeError(`forecast ${f.id}: the end date must follow the base date`);
}

/** Throws (RangeError) for a score no store may hold. */
export function checkScore(s: ScoreRecord): void {
  if (typeof s.forecastId !== 'string' || !s.forecastId) throw new RangeError('a score needs its forecast id');
  if (typeof s.seriesId !== 'string' || !s.seriesId) throw new RangeError(`score of ${s.forecastId}: no series`);
  if (!Number.isSafeInteger(s.revision) || s.revision < 1) throw new RangeError(`score of ${s.forecastId}: not a revision: ${String(s.revision)}`);
}
