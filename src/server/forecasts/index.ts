/**
 * The process's forecast source (see source.ts): the store's forecasts and scores, read once
 * the first start's seed of the demo desk (runtime.ts) has landed; scored on the forecasts' clock.
 */
import { forecastsSeeded, store } from '../runtime.ts';
import { forecastNow } from './clock.ts';
import { storeForecastSource, type ForecastSource } from './source.ts';

/** One source per store the runtime has open (a reopened store gets a new one). */
const sources = new WeakMap<object, ForecastSource>();

export async function forecastSource(): Promise<ForecastSource> {
  const opened = await store();
  let source = sources.get(opened);
  if (!source) sources.set(opened, (source = storeForecastSource(opened, { ready: forecastsSeeded, now: forecastNow })));
  return source;
}
