/**
 * The pages' forecast source of phase 1 (src/server/forecasts/source.ts) over a real SQLite
 * store: the demo desk's calls and their baseline twins from the store's prices, scored; kept
 * while the prices stand, made again after a price write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoData } from '../../src/lib/demoData.ts';
import { latestBaseline, latestOpenDeskCall } from '../../src/lib/forecasts/view.ts';
import { twinKey } from '../../src/lib/forecasts/scoreboard.ts';
import { findSeries } from '../../src/lib/seriesCatalog.ts';
import { augursEts } from '../../src/server/forecasts/ets.ts';
import { demoForecastSource } from '../../src/server/forecasts/source.ts';
import type { Store } from '../../src/server/store/index.ts';
import { freshStore } from './helpers.ts';

const TODAY = '2026-11-26';
const SERIES = 'historical.ppRaffia.cif-ns';
let store: Store;

beforeAll(async () => {
  store = await freshStore();
  const demo = generateDemoData({ today: TODAY });
  await store.upsertSeries([findSeries(SERIES)!]);
  await store.upsertPoints(demo.points.get(SERIES)!.map((p) => ({ seriesId: SERIES, ...p })));
});
afterAll(async () => store.close());

describe('the demo forecast source', () => {
  it('gives the desk’s calls, a baseline twin for each base date and the latest baseline, scored', async () => {
    const source = demoForecastSource(store, augursEts);
    const { forecasts, scores } = await source.forSeries(SERIES, TODAY);
    const desk = forecasts.filter((f) => f.by.kind === 'desk');
    const baselines = new Map(forecasts.filter((f) => f.by.kind === 'baseline').map((f) => [twinKey(f), f]));
    expect(desk.length).toBeGreaterThan(90);
    for (const f of desk) expect(baselines.has(twinKey(f)), f.id).toBe(true);
    const last = (await store.latestPoints(SERIES, 1))[0]!;
    expect(latestBaseline(forecasts, '1w')?.baseDate).toBe(last.date);
    expect(latestOpenDeskCall(forecasts, '1w', TODAY)).not.toBeNull();
    // Every call that ended before the last price is scored; none still open is.
    for (const f of forecasts) {
      if (f.endDate <= last.date) expect(scores.has(f.id), f.id).toBe(true);
      if (f.endDate > TODAY) expect(scores.has(f.id), f.id).toBe(false);
    }
  });

  it('keeps its answer while the prices stand, and makes it again after a price write', async () => {
    const source = demoForecastSource(store, augursEts);
    const first = await source.forSeries(SERIES, TODAY);
    expect(await source.forSeries(SERIES, TODAY)).toBe(first);
    // Correct the price a scored call rests on: its score follows.
    const scored = [...first.scores.values()].find((s) => s.actual !== null)!;
    await store.upsertPoints([{ seriesId: SERIES, date: scored.actual!.date, value: scored.actual!.value + 500 }]);
    const again = await source.forSeries(SERIES, TODAY);
    expect(again).not.toBe(first);
    expect(again.scores.get(scored.forecastId)?.actual).toEqual({ date: scored.actual!.date, value: scored.actual!.value + 500 });
    expect(again.scores.get(scored.forecastId)?.outcome?.insideRange).toBe(false);
  });

  it('has nothing for a series the catalog does not know', async () => {
    expect(await demoForecastSource(store, augursEts).forSeries('nope', TODAY)).toEqual({ forecasts: [], scores: new Map() });
  });
});
