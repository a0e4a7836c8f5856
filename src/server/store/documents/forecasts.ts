/** Forecasts and scores (../forecasts.ts), written once over the document driver. */
import type { Forecast } from '../../../lib/forecasts/model.ts';
import { checkForecast, checkScore, forecastTarget, type ForecastStore, type PublishResult } from '../forecasts.ts';
import type { DocumentDriver } from './driver.ts';

/** Writes per transaction: under Firestore's 500, with room for the audit entry. */
const CHUNK = 400;

const byPublication = (a: Forecast, b: Forecast): number => (a.publishedAt === b.publishedAt ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.publishedAt < b.publishedAt ? -1 : 1);

function* chunks<T>(items: readonly T[]): Generator<readonly T[]> {
  for (let i = 0; i < items.length; i += CHUNK) yield items.slice(i, i + CHUNK);
}

export function createForecastStore(docs: DocumentDriver): ForecastStore {
  let version = 0;
  const bump = () => {
    version++;
  };
  docs.onWritten('forecasts', bump);
  docs.onWritten('scores', bump);

  return {
    async listForecasts(seriesId) {
      return (await docs.list('forecasts', [{ index: 'seriesId', value: seriesId }])).toSorted(byPublication);
    },

    getForecast: (id) => docs.get('forecasts', id),

    listScores: (seriesId) => docs.list('scores', [{ index: 'seriesId', value: seriesId }]),

    publishForecast(forecast, { actor, now }) {
      checkForecast(forecast);
      return docs.transact(async (tx): Promise<PublishResult> => {
        if (await tx.get('forecasts', forecast.id)) return { kind: 'exists' };
        const entry = await tx.audit({ at: now.toISOString(), actor, action: 'forecast.publish', target: forecastTarget(forecast.id), before: null, after: { ...forecast } });
        tx.create('forecasts', forecast);
        return { kind: 'published', entry };
      });
    },

    async addForecasts(forecasts) {
      forecasts.forEach(checkForecast);
      let added = 0;
      for (const chunk of chunks(forecasts)) {
        added += await docs.transact(async (tx) => {
          const there = await Promise.all(chunk.map((f) => tx.get('forecasts', f.id)));
          const fresh = chunk.filter((_, i) => there[i] === null);
          for (const f of fresh) tx.create('forecasts', f);
          // A baseline made again from a corrected price (same series, horizon and base date, another
          // base value) replaces the one made from the price before, while it has no score: the
          // desk's forecasts are never rewritten, and a scored baseline is history.
          const remade = chunk.filter((f, i) => {
            const old = there[i];
            return old !== null && old !== undefined && f.by.kind === 'baseline' && old.by.kind === 'baseline' && (old.baseValue !== f.baseValue || old.low !== f.low || old.high !== f.high);
          });
          const scored = await Promise.all(remade.map((f) => tx.get('scores', f.id)));
          const replaced = remade.filter((_, i) => scored[i] === null);
          for (const f of replaced) tx.put('forecasts', f);
          return fresh.length + replaced.length;
        });
      }
      return added;
    },

    async putScores(scores) {
      scores.forEach(checkScore);
      for (const chunk of chunks(scores)) {
        await docs.transact(async (tx) => {
          for (const s of chunk) tx.put('scores', s);
        });
      }
      return scores.length;
    },

    async hasNoForecasts() {
      return (await docs.list('forecasts', [], { limit: 1 })).length === 0;
    },

    forecastsVersion: () => version,
  };
}
