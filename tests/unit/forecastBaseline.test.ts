/**
 * The statistical baseline: the engine (augurs' AutoETS) against R's forecast package on
 * known series, the textbook's interval formula, a hand check with an exact answer, and what
 * baselineForecasts makes of the engine's answer (steps per horizon, ids, flat band, direction,
 * the naive fallback).
 */
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/lib/dates.ts';
import { BASELINE, baselineForecasts, baselineId, naivePrediction, type EtsEngine } from '../../src/lib/forecasts/baseline.ts';
import { flatBandPct, horizonEnd, observationSteps } from '../../src/lib/forecasts/model.ts';
import type { PricePoint } from '../../src/lib/priceTypes.ts';
import { findSeries } from '../../src/lib/seriesCatalog.ts';
import { augursEts } from '../../src/server/forecasts/ets.ts';
import { etsReferences } from './fixtures/etsReference.ts';

const within = (actual: number, expected: number, fraction: number) =>
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(Math.abs(expected) * fraction);

describe('the ETS engine against R (forecast 8.20, ets(y, model = "AZN"), 80 % intervals)', () => {
  // How far apart the two half-widths may be: both optimise the same likelihood from the same
  // start with Nelder–Mead and stop a little apart; a damped trend's β and φ (BJsales) move the
  // width more than a level's α does.
  const widthTolerance = { nile: 0.02, dax: 0.02, bjsales: 0.1 } as const;

  it.each(Object.entries(etsReferences) as [keyof typeof etsReferences, (typeof etsReferences)[keyof typeof etsReferences]][])('%s: the same forecasts and intervals', (name, ref) => {
    const got = augursEts.fit(ref.data, ref.h, 0.8);
    expect(got.point).toHaveLength(ref.h);
    for (let i = 0; i < ref.h; i++) {
      // Points agree to 0.2 %, the interval's ends to 0.5 % of the level.
      within(got.point[i]!, ref.mean[i]!, 0.002);
      within(got.lower[i]!, ref.lower[i]!, 0.005);
      within(got.upper[i]!, ref.upper[i]!, 0.005);
      within(got.upper[i]! - got.point[i]!, ref.upper[i]! - ref.mean[i]!, widthTolerance[name]);
    }
  });

  it('widens ETS(A,N,N) intervals as FPP3 Table 8.8 says: σ_h² = σ²(1 + (h−1)α²), one α for every h', () => {
    for (const ref of [etsReferences.nile, etsReferences.dax]) {
      const got = augursEts.fit(ref.data, ref.h, 0.8);
      const half = got.upper.map((u, i) => u - got.point[i]!);
      // α² from the second step, then every later step must follow from it.
      const alpha2 = (half[1]! / half[0]!) ** 2 - 1;
      expect(alpha2).toBeGreaterThan(0);
      expect(alpha2).toBeLessThanOrEqual(1);
      for (let h = 3; h <= ref.h; h++) within(half[h - 1]!, half[0]! * Math.sqrt(1 + (h - 1) * alpha2), 1e-6);
      // Symmetric about the point, as additive errors are.
      got.lower.forEach((l, i) => within(got.point[i]! - l, half[i]!, 1e-9));
    }
  });

  it('continues an exact straight line exactly, with no width (a hand check)', () => {
    const line = Array.from({ length: 40 }, (_, t) => 100 + 2 * (t + 1));
    const got = augursEts.fit(line, 5, 0.8);
    got.point.forEach((p, i) => expect(p).toBeCloseTo(182 + 2 * i, 6));
    got.upper.forEach((u, i) => expect(u - got.lower[i]!).toBeCloseTo(0, 6));
  });
});

/** A weekly series (Mondays from 2024-01-01) with the given values. */
const weekly = (values: readonly number[]): PricePoint[] => values.map((value, i) => ({ date: addDays('2024-01-01', 7 * i), value }));
const mumbai = findSeries('historical.ppRaffia.mumbai')!;
const brent = findSeries('feedstock.crude.brent')!;
const NOW = new Date('2026-11-26T12:00:00Z');

describe('baselineForecasts', () => {
  it('forecasts each horizon from the last price, to the right step (a straight line: exact)', () => {
    const points = weekly(Array.from({ length: 60 }, (_, t) => 100 + 0.5 * t));
    const base = points.at(-1)!;
    const made = baselineForecasts(mumbai, points, augursEts, NOW);
    expect(made.map((f) => f.horizon)).toEqual(['1w', '1m', '3m']);
    for (const f of made) {
      const steps = observationSteps('weekly', base.date, f.endDate);
      expect(f.id).toBe(baselineId(mumbai.id, f.horizon, base.date));
      expect(f).toMatchObject({ seriesId: mumbai.id, baseDate: base.date, baseValue: base.value, endDate: horizonEnd(base.date, f.horizon), supersedes: null, publishedAt: NOW.toISOString() });
      expect(f.by).toEqual({ kind: 'baseline', method: 'ets' });
      expect((f.low + f.high) / 2).toBeCloseTo(base.value + 0.5 * steps, 1);
      expect(f.flatBandPct).toBe(flatBandPct(points, 'weekly', f.horizon, base.date));
      expect(f.direction).toBe('up');
    }
    expect(observationSteps('weekly', base.date, made[0]!.endDate)).toBe(1);
    // 17 Feb → 17 May 2025 is 89 days: 12 whole weeks.
    expect([base.date, made[2]!.endDate]).toEqual(['2025-02-17', '2025-05-17']);
    expect(observationSteps('weekly', base.date, made[2]!.endDate)).toBe(12);
  });

  it('uses only the prices up to the base date it is asked for, and two years of them', () => {
    const rising = weekly(Array.from({ length: 200 }, (_, t) => 100 + t));
    const asOf = rising[150]!.date;
    const [week] = baselineForecasts(mumbai, rising, augursEts, NOW, asOf);
    expect(week!.baseDate).toBe(asOf);
    expect(week!.baseValue).toBe(250);
    expect((week!.low + week!.high) / 2).toBeCloseTo(251, 1);
    // A change more than two years back does not move it.
    const early = rising.map((p, i) => (i < 40 ? { ...p, value: p.value * 3 } : p));
    expect(baselineForecasts(mumbai, early, augursEts, NOW, asOf)).toEqual(baselineForecasts(mumbai, rising, augursEts, NOW, asOf));
    expect(BASELINE.windowDays).toBe(730);
  });

  it('makes nothing for a series with too few prices', () => {
    expect(baselineForecasts(mumbai, weekly(Array.from({ length: BASELINE.minPoints - 1 }, () => 100)), augursEts, NOW)).toEqual([]);
    expect(baselineForecasts(mumbai, [], augursEts, NOW)).toEqual([]);
  });

  it('counts weekdays for a daily series: a 3-month call on Brent is about 65 steps', () => {
    expect(observationSteps('daily', '2026-11-20', '2026-11-27')).toBe(5);
    expect(observationSteps('daily', '2026-11-20', '2026-11-22')).toBe(0 + 0); // Friday to Sunday: no weekday after Friday
    expect(observationSteps('daily', '2026-11-20', '2026-11-23')).toBe(1);
    expect(observationSteps('daily', '2026-11-20', horizonEnd('2026-11-20', '3m'))).toBe(65);
    const days: PricePoint[] = [];
    for (let d = '2025-06-02'; days.length < 400; d = addDays(d, 1)) {
      const dow = new Date(`${d}T00:00:00Z`).getUTCDay();
      if (dow !== 0 && dow !== 6) days.push({ date: d, value: 70 + 5 * Math.sin(days.length / 9) });
    }
    const made = baselineForecasts(brent, days, augursEts, NOW);
    expect(made).toHaveLength(3);
    for (const f of made) expect(f.low).toBeLessThan(f.high);
    // Wider the further out.
    expect(made[2]!.high - made[2]!.low).toBeGreaterThan(made[0]!.high - made[0]!.low);
  });

  it('falls back to the naive forecast when no model can be fitted', () => {
    const cannotFit: EtsEngine = {
      fit() {
        throw new Error('no model found');
      },
    };
    const points = weekly([100, 101, 99, 100, 102, 101, 100, 99, 98, 100, 101, 102, 100, 99, 100, 101, 100, 100, 101, 99, 100, 102, 101, 100, 99, 100, 101, 100, 99, 100]);
    const made = baselineForecasts(mumbai, points, cannotFit, NOW);
    expect(made.map((f) => f.by)).toEqual([{ kind: 'baseline', method: 'naive' }, { kind: 'baseline', method: 'naive' }, { kind: 'baseline', method: 'naive' }]);
    expect(made.every((f) => (f.low + f.high) / 2 === 100)).toBe(true);
    const answersNaN: EtsEngine = { fit: (_v, steps) => ({ point: Array(steps).fill(Number.NaN), lower: Array(steps).fill(0), upper: Array(steps).fill(0) }) };
    expect(baselineForecasts(mumbai, points, answersNaN, NOW)[0]!.by).toEqual({ kind: 'baseline', method: 'naive' });
  });

  it('gives the naive method the random walk interval ±z·σ·√h (a hand check)', () => {
    // One-step changes +2, −2, +2: σ = √((4 + 4 + 4) / 3) = 2.
    const got = naivePrediction([10, 12, 10, 12], 4, 1.5);
    expect(got.point).toEqual([12, 12, 12, 12]);
    expect(got.upper.map((u) => Number(u.toFixed(6)))).toEqual([15, 12 + 3 * Math.SQRT2, 12 + 3 * Math.sqrt(3), 18].map((u) => Number(u.toFixed(6))));
    expect(got.lower[3]).toBeCloseTo(6, 9);
  });
});
