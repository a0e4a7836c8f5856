/**
 * The process's forecast source (see source.ts): in this phase the demo generator over the
 * store's prices, in memory; the store-backed source takes its place in the next.
 */
import { store } from '../runtime.ts';
import { augursEts } from './ets.ts';
import { demoForecastSource, type ForecastSource } from './source.ts';

let source: ForecastSource | undefined;

export async function forecastSource(): Promise<ForecastSource> {
  source ??= demoForecastSource(await store(), augursEts);
  return source;
}
