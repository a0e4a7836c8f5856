/**
 * The demo's year of desk calls (src/lib/forecasts/demo.ts) on the demo prices: deterministic,
 * well-formed, on the desk's cadence, and with a skill in a believable band: right more often
 * than the baseline on direction, far from always.
 */
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/lib/dates.ts';
import { generateDemoData } from '../../src/lib/demoData.ts';
import { baselineForecasts } from '../../src/lib/forecasts/baseline.ts';
import { forecastSeriesIds } from '../../src/lib/forecasts/coverage.ts';
import { DEMO_DESK, demoBaseDates, demoDeskForecasts, priceTick } from '../../src/lib/forecasts/demo.ts';
import { flatBandPct, horizonEnd, rangeAllows, type Forecast } from '../../src/lib/forecasts/model.ts';
import { scoreboardOf } from '../../src/lib/forecasts/scoreboard.ts';
import { scoreFor, SETTLE_DAYS, type Score } from '../../src/lib/forecasts/scoring.ts';
import { findSeries } from '../../src/lib/seriesCatalog.ts';
import { augursEts } from '../../src/server/forecasts/ets.ts';

const TODAY = '2026-11-26';
const NOW = new Date(`${TODAY}T12:00:00Z`);
const data = generateDemoData({ today: TODAY });
const pointsOf = (id: string) => data.points.get(id)!;
const deskOn = (id: string, today = TODAY, seed?: number) => demoDeskForecasts({ series: findSeries(id)!, points: pointsOf(id).filter((p) => p.date <= today), today, ...(seed === undefined ? {} : { seed }) });

const weeklyId = 'historical.ppRaffia.cif-ns';
const dailyId = 'feedstock.naphtha.japan';

describe('the demo desk calls', () => {
  it('are the same for the same prices, day and seed, and differ for another seed', () => {
    const calls = deskOn(weeklyId);
    expect(deskOn(weeklyId)).toEqual(calls);
    const originals = (list: Forecast[]) => list.filter((f) => f.supersedes === null);
    const other = originals(deskOn(weeklyId, TODAY, 7));
    expect(other.map((f) => f.id)).toEqual(originals(calls).map((f) => f.id));
    expect(other.map((f) => [f.low, f.high])).not.toEqual(originals(calls).map((f) => [f.low, f.high]));
  });

  it('do not change as days pass, once what they forecast had happened', () => {
    const laterDay = addDays(TODAY, 14);
    const later = new Map(deskOn(dailyId, laterDay).map((f) => [f.id, f]));
    // Those still in the later day's fifteen months.
    const stillShown = demoBaseDates(findSeries(dailyId)!, pointsOf(dailyId), laterDay)[0]!;
    const settled = deskOn(dailyId).filter((f) => f.endDate <= addDays(TODAY, -SETTLE_DAYS) && f.baseDate >= stillShown);
    expect(settled.length).toBeGreaterThan(60);
    for (const f of settled) expect(later.get(f.id), f.id).toEqual(f);
  });

  it('follow the desk’s cadence: a weekly call on every Monday (or price date), monthly and quarterly calls once a month', () => {
    for (const id of [weeklyId, dailyId]) {
      const series = findSeries(id)!;
      const calls = deskOn(id).filter((f) => f.supersedes === null);
      const bases = demoBaseDates(series, pointsOf(id), TODAY);
      expect(calls.filter((f) => f.horizon === '1w').map((f) => f.baseDate)).toEqual(bases);
      const months = new Set(bases.map((d) => d.slice(0, 7)));
      for (const horizon of ['1m', '3m'] as const) expect(new Set(calls.filter((f) => f.horizon === horizon).map((f) => f.baseDate.slice(0, 7)))).toEqual(months);
      expect(bases[0]! >= addDays(TODAY, -457)).toBe(true);
      if (series.frequency === 'daily') for (const d of bases) expect(new Date(`${d}T00:00:00Z`).getUTCDay()).toBeLessThanOrEqual(2);
    }
  });

  it('are well-formed records: the base is the price of the base date, the end the horizon’s, the range on a price step and true to its direction', () => {
    for (const id of forecastSeriesIds) {
      const series = findSeries(id)!;
      const points = pointsOf(id);
      const price = new Map(points.map((p) => [p.date, p.value]));
      for (const f of deskOn(id)) {
        expect(f.by).toEqual(DEMO_DESK);
        expect(f.seriesId).toBe(id);
        expect(f.baseValue, f.id).toBe(price.get(f.baseDate));
        expect(f.endDate).toBe(horizonEnd(f.baseDate, f.horizon));
        expect(f.flatBandPct).toBe(flatBandPct(points, series.frequency, f.horizon, f.baseDate));
        expect(f.low, f.id).toBeGreaterThan(0);
        expect(f.low, f.id).toBeLessThan(f.high);
        expect(rangeAllows(f.direction, f.low, f.high, f.baseValue, f.flatBandPct), f.id).toBe(true);
        const tick = priceTick(f.baseValue);
        expect(Math.abs(f.low / tick - Math.round(f.low / tick)), f.id).toBeLessThan(1e-6);
        expect(f.publishedAt.startsWith(f.baseDate)).toBe(true);
        expect(f.rationale).toContain(series.unit);
      }
    }
  });

  it('correct a few calls on the next price date, while the call is still open, and keep both', () => {
    const all = forecastSeriesIds.flatMap((id) => deskOn(id));
    const corrections = all.filter((f) => f.supersedes !== null);
    expect(corrections.length).toBeGreaterThan(0);
    expect(corrections.length).toBeLessThan(all.length * 0.08);
    const byId = new Map(all.map((f) => [f.id, f]));
    for (const c of corrections) {
      const original = byId.get(c.supersedes!)!;
      expect(original, c.id).toBeDefined();
      expect([c.seriesId, c.horizon]).toEqual([original.seriesId, original.horizon]);
      expect(c.baseDate > original.baseDate && c.baseDate < original.endDate).toBe(true);
      expect(c.rationale).toMatch(/^\*Correction of our /);
    }
  });

  it('give the desk a believable skill: right on direction about half the time, better than the baseline, never perfect', () => {
    // Four weekly and two daily series, scored against their own prices, with their baseline twins.
    const ids = [weeklyId, 'historical.hdpeFilm.cif-ns', 'historical.ppRaffia.mumbai', 'historical.pvcExtrusion.mumbai', dailyId, 'feedstock.crude.brent'];
    const totals = { desk: { n: 0, inside: 0, right: 0 }, baseline: { n: 0, inside: 0, right: 0 } };
    for (const id of ids) {
      const series = findSeries(id)!;
      const points = pointsOf(id);
      const desk = deskOn(id);
      const twins = [...new Set(desk.map((f) => f.baseDate))].flatMap((d) => baselineForecasts(series, points, augursEts, NOW, d));
      const scores = new Map<string, Score>();
      for (const f of [...desk, ...twins] as Forecast[]) {
        const s = scoreFor(f, series.frequency, points, TODAY, null, NOW);
        if (s) scores.set(f.id, s);
      }
      const board = scoreboardOf([...desk, ...twins], scores, TODAY);
      expect(board.desk.calls, id).toBeGreaterThan(60);
      expect(board.pairs, id).toBe(board.desk.calls);
      for (const side of ['desk', 'baseline'] as const) {
        totals[side].n += board[side].calls;
        totals[side].inside += board[side].inside;
        totals[side].right += board[side].directionRight;
      }
    }
    const rate = (side: 'desk' | 'baseline', what: 'inside' | 'right') => totals[side][what] / totals[side].n;
    expect(rate('desk', 'right')).toBeGreaterThan(0.45);
    expect(rate('desk', 'right')).toBeLessThan(0.75);
    expect(rate('desk', 'inside')).toBeGreaterThan(0.45);
    expect(rate('desk', 'inside')).toBeLessThan(0.85);
    expect(rate('desk', 'right') - rate('baseline', 'right')).toBeGreaterThan(0.1);
    // The baseline's 80 % interval holds the price about that often.
    expect(rate('baseline', 'inside')).toBeGreaterThan(0.6);
    expect(rate('baseline', 'inside')).toBeLessThan(0.95);
  });
});
