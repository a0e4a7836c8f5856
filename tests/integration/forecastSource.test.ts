/**
 * The forecasts over a real SQLite store (src/server/forecasts/records.ts, source.ts): the
 * demo desk seeded once, read back by the pages' source; a score made when a horizon ends and
 * kept; re-made, and marked, only when a price it rests on is corrected; the baseline refreshed
 * after a price write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/lib/dates.ts';
import { generateDemoData } from '../../src/lib/demoData.ts';
import { baselineId } from '../../src/lib/forecasts/baseline.ts';
import { twinKey } from '../../src/lib/forecasts/scoreboard.ts';
import { latestBaseline, latestOpenDeskCall } from '../../src/lib/forecasts/view.ts';
import { findSeries } from '../../src/lib/seriesCatalog.ts';
import { augursEts } from '../../src/server/forecasts/ets.ts';
import { refreshBaselines, scoreSeries, seedDemoForecasts } from '../../src/server/forecasts/records.ts';
import { storeForecastSource } from '../../src/server/forecasts/source.ts';
import type { Store } from '../../src/server/store/index.ts';
import { freshStore } from './helpers.ts';

// A Friday, the weekly series' price day, seeded early in India's morning: the demo desk's call
// on that day's price would be dated later that day.
const TODAY = '2026-11-27';
const SEEDED_AT = new Date('2026-11-26T23:00:00.000Z');
const SERIES = 'historical.ppRaffia.cif-ns';
let store: Store;

beforeAll(async () => {
  store = await freshStore();
  const demo = generateDemoData({ today: TODAY });
  await store.upsertSeries([findSeries(SERIES)!]);
  await store.upsertPoints(demo.points.get(SERIES)!.map((p) => ({ seriesId: SERIES, ...p })));
}, 120_000);
afterAll(async () => store.close());

describe('the demo desk seeded into the store', () => {
  it('writes the desk’s calls, a baseline twin for each base date and the latest baseline, scored; once', async () => {
    const written = await seedDemoForecasts(store, augursEts, SEEDED_AT, TODAY);
    expect(written!.forecasts).toBeGreaterThan(250);
    expect(await seedDemoForecasts(store, augursEts, SEEDED_AT, TODAY)).toBeNull();

    const forecasts = await store.listForecasts(SERIES);
    expect(forecasts).toHaveLength(written!.forecasts);
    expect((await store.listScores(SERIES)).length).toBe(written!.scores);
    const desk = forecasts.filter((f) => f.by.kind === 'desk');
    const baselines = new Set(forecasts.filter((f) => f.by.kind === 'baseline').map(twinKey));
    expect(desk.length).toBeGreaterThan(90);
    for (const f of desk) expect(baselines.has(twinKey(f)), f.id).toBe(true);
    const last = (await store.latestPoints(SERIES, 1))[0]!;
    expect(latestBaseline(forecasts, '1w')?.baseDate).toBe(last.date);
    expect(latestOpenDeskCall(forecasts, '1w', TODAY)).not.toBeNull();
    // Nothing is published after the seed (the generator's 16:30 IST of today is still to come at 04:30 IST).
    for (const f of forecasts) expect(f.publishedAt <= SEEDED_AT.toISOString(), f.id).toBe(true);
  }, 120_000);

  it('the pages’ source reads them: every call that ended by the last price scored, none still open', async () => {
    const source = storeForecastSource(store, { now: () => SEEDED_AT });
    const { forecasts, scores } = await source.forSeries(SERIES, TODAY);
    const last = (await store.latestPoints(SERIES, 1))[0]!;
    for (const f of forecasts) {
      if (f.endDate <= last.date) expect(scores.has(f.id), f.id).toBe(true);
      if (f.endDate > TODAY) expect(scores.has(f.id), f.id).toBe(false);
    }
    expect(await source.forSeries(SERIES, TODAY)).toBe(await source.forSeries(SERIES, TODAY));
  });
});

describe('scores, made once', () => {
  it('a call whose horizon ends is scored on the next read, and that score is kept', async () => {
    const open = latestOpenDeskCall(await store.listForecasts(SERIES), '1w', TODAY)!;
    // The price of its end date lands, and the day after it comes.
    await store.upsertPoints([{ seriesId: SERIES, date: open.endDate, value: open.high + 1 }]);
    const later = addDays(open.endDate, 1);
    const at = new Date(`${later}T04:00:00.000Z`);
    const source = storeForecastSource(store, { now: () => at });
    const { scores } = await source.forSeries(SERIES, later);
    const score = scores.get(open.id)!;
    expect(score).toMatchObject({ revision: 1, scoredAt: at.toISOString(), actual: { date: open.endDate, value: open.high + 1 }, earlier: [] });
    expect(score.outcome?.insideRange).toBe(false);
    // Another read, another day: nothing is scored again.
    const again = storeForecastSource(store, { now: () => new Date() });
    expect((await again.forSeries(SERIES, addDays(later, 3))).scores.get(open.id)).toEqual(score);
    expect(await scoreSeries(store, SERIES, addDays(later, 3), new Date())).toBe(0);
  });

  it('a corrected price re-scores the calls resting on it, keeping the earlier score; others stay as they were', async () => {
    const before = new Map((await store.listScores(SERIES)).map((s) => [s.forecastId, s]));
    const scored = [...before.values()].find((s) => s.actual !== null && s.outcome?.insideRange)!;
    const date = scored.actual!.date;
    // A write that changes nothing re-scores nothing.
    await store.upsertPoints([{ seriesId: SERIES, date, value: scored.actual!.value }]);
    expect(await scoreSeries(store, SERIES, TODAY, new Date(), [date])).toBe(0);

    await store.upsertPoints([{ seriesId: SERIES, date, value: scored.actual!.value * 1.5 }]);
    const at = new Date('2026-11-27T05:00:00.000Z');
    const changed = await scoreSeries(store, SERIES, TODAY, at, [date]);
    expect(changed).toBeGreaterThanOrEqual(1);
    const after = new Map((await store.listScores(SERIES)).map((s) => [s.forecastId, s]));
    const rescored = after.get(scored.forecastId)!;
    expect(rescored.revision).toBe(2);
    expect(rescored.actual?.value).toBe(scored.actual!.value * 1.5);
    expect(rescored.outcome?.insideRange).toBe(false);
    expect(rescored.earlier).toEqual([{ scoredAt: scored.scoredAt, actual: scored.actual, outcome: scored.outcome }]);
    const untouched = [...after.values()].filter((s) => s.actual?.date !== date);
    for (const s of untouched) expect(s, s.forecastId).toEqual(before.get(s.forecastId));
    expect([...after.values()].filter((s) => s.revision === 2)).toHaveLength(changed);
  });
});

describe('the baseline after a price write', () => {
  it('adds the three horizons from the new latest price, once', async () => {
    const last = (await store.latestPoints(SERIES, 1))[0]!;
    const next = addDays(last.date, 7);
    await store.upsertPoints([{ seriesId: SERIES, date: next, value: last.value + 5 }]);
    const now = new Date(`${next}T13:00:00.000Z`);
    expect(await refreshBaselines(store, augursEts, [SERIES, 'no.such.series', 'fx.usdinr'], now)).toBe(3);
    expect(await refreshBaselines(store, augursEts, [SERIES], now)).toBe(0);
    const ids = new Set((await store.listForecasts(SERIES)).map((f) => f.id));
    for (const h of ['1w', '1m', '3m']) expect(ids.has(baselineId(SERIES, h, next)), h).toBe(true);

    // The desk corrects that latest price: the three baselines made from it are made again from the corrected one.
    await store.upsertPoints([{ seriesId: SERIES, date: next, value: last.value + 25 }]);
    expect(await refreshBaselines(store, augursEts, [SERIES], now)).toBe(3);
    for (const h of ['1w', '1m', '3m']) expect((await store.getForecast(baselineId(SERIES, h, next)))?.baseValue, h).toBe(last.value + 25);
    expect(await refreshBaselines(store, augursEts, [SERIES], now)).toBe(0);
  });
});
