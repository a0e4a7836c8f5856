/**
 * The process's forecast source (see source.ts): the store's forecasts and scores, read once
 * the first start's seed of the demo desk (runtime.ts) has landed; scored on the forecasts' clock.
 */
import { forecastsSeeded, store } from '../runtime.ts';
import { forecastNow } from './clock.ts';
import { storeForecastSource, type ForecastSource } from './source.ts';

let source: ForecastSource | undefined;

export async function forecastSource(): Promise<ForecastSource> {
  source ??= storeForecastSource(await store(), { ready: forecastsSeeded, now: forecastNow });
  return source;
}
