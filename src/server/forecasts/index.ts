/**
 * The process's forecast source (see source.ts): the store's forecasts and scores, read once
 * the first start's seed of the demo desk (runtime.ts) has landed.
 */
import { forecastsSeeded, store } from '../runtime.ts';
import { storeForecastSource, type ForecastSource } from './source.ts';

let source: ForecastSource | undefined;

export async function forecastSource(): Promise<ForecastSource> {
  source ??= storeForecastSource(await store(), { ready: forecastsSeeded });
  return source;
}
