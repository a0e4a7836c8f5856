/**
 * What a committed price write means for forecasts (admin entry, correction, deletion, CSV
 * import): for each touched series, the baseline from its latest price (added if new) and the
 * scores resting on the written dates (re-made only if their price changed). Runs in the
 * background, one write after another and one series at a time with a turn of the event loop
 * between, so the writer's answer never waits and readers keep being answered during an import.
 */
import { isoDateOf, type IsoDate } from '../../lib/dates.ts';
import { forecastSeriesIds } from '../../lib/forecasts/coverage.ts';
import { store } from '../runtime.ts';
import { forecastNow } from './clock.ts';
import { augursEts } from './ets.ts';
import { nextTurn, refreshBaselines, scoreSeries } from './records.ts';

let queue: Promise<unknown> = Promise.resolve();

/** The dates written, by series. */
export type WrittenDates = ReadonlyMap<string, readonly IsoDate[]>;

/** Collects the dates of written rows by series. */
export function datesBySeries(rows: Iterable<{ readonly seriesId: string; readonly date: IsoDate }>): Map<string, IsoDate[]> {
  const out = new Map<string, Set<IsoDate>>();
  for (const { seriesId, date } of rows) {
    let dates = out.get(seriesId);
    if (!dates) out.set(seriesId, (dates = new Set()));
    dates.add(date);
  }
  return new Map([...out].map(([id, dates]) => [id, [...dates].toSorted()]));
}

/** Queues the work; the returned promise settles when it has run (tests wait on it). */
export function forecastsAfterPriceWrite(written: WrittenDates, now: () => Date = forecastNow): Promise<void> {
  const run = queue.then(async () => {
    try {
      const s = await store();
      const started = performance.now();
      let added = 0;
      let scored = 0;
      for (const [seriesId, dates] of written) {
        const at = now();
        added += await refreshBaselines(s, augursEts, [seriesId], at);
        await nextTurn();
        scored += await scoreSeries(s, seriesId, isoDateOf(at), at, dates);
      }
      // One line per write: what the refresh did and how long it took (npm run bench reads it after its import).
      const covered = [...written.keys()].filter((id) => forecastSeriesIds.includes(id)).length;
      console.info(`[forecasts] after a price write: ${written.size} series written, ${covered} with forecasts refreshed in ${Math.round(performance.now() - started)} ms (${added} baselines written, ${scored} scores written)`);
    } catch (error) {
      console.error('[forecasts] after a price write:', error);
    }
  });
  queue = run;
  return run;
}

/** Settles when every run queued so far has finished (tests). */
export const forecastWritesSettled = (): Promise<unknown> => queue;
