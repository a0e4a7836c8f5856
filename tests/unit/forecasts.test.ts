/**
 * The forecast domain (src/lib/forecasts): horizons and the flat band, the desk's input,
 * scoring (which price counts, inside/outside, direction, % error, re-scoring after a
 * correction), the scoreboard and the predicted-vs-actual rows.
 */
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/lib/dates.ts';
import { checkAgainstBase, checkSupersedes, deskForecastOf, DeskForecastInput } from '../../src/lib/forecasts/input.ts';
import {
  addCalendarMonths,
  directionOf,
  flatBandPct,
  FLAT_BAND,
  horizonEnd,
  lastPointOn,
  observationSteps,
  rangeAllows,
  type Forecast,
} from '../../src/lib/forecasts/model.ts';
import { asChangeFromBase, predictedVsActual, scoreboardOf, tally, twinKey } from '../../src/lib/forecasts/scoreboard.ts';
import { actualFor, actualWindow, callStatus, isMatured, outcomeOf, scoreFor, SETTLE_DAYS, touchedBy, type Score } from '../../src/lib/forecasts/scoring.ts';
import type { PricePoint } from '../../src/lib/priceTypes.ts';
import {
  callItemsInChanges,
  callItemsInPrices,
  deskCallRows,
  FAN_COLORS,
  fanChart,
  latestBaseline,
  latestOpenDeskCall,
  predictedVsActualChart,
  publicTrackRecord,
} from '../../src/lib/forecasts/view.ts';
import { changeRangeText, rangeText, sharePct, shortDate, signedPct } from '../../src/lib/forecasts/format.ts';

const desk = { kind: 'desk', uid: 'demo-editor', name: 'Desk' } as const;

/** A desk call on a weekly series: base 1,000 on Monday 2 Nov 2026, 1 week, up, 1,020–1,060, flat ±1 %. */
const call = (over: Partial<Forecast> = {}): Forecast => ({
  id: 'f1',
  seriesId: 'historical.ppRaffia.cif-ns',
  horizon: '1w',
  direction: 'up',
  low: 1020,
  high: 1060,
  rationale: 'Firmer.',
  by: desk,
  publishedAt: '2026-11-02T11:00:00.000Z',
  baseDate: '2026-11-02',
  baseValue: 1000,
  endDate: '2026-11-09',
  flatBandPct: 1,
  supersedes: null,
  ...over,
});
const pt = (date: string, value: number): PricePoint => ({ date, value });
const T0 = new Date('2026-11-09T13:00:00Z');
const T1 = new Date('2026-11-20T13:00:00Z');

describe('horizons', () => {
  it('end 7 days or 1 or 3 calendar months after the base date (month ends clamp)', () => {
    expect(horizonEnd('2026-11-02', '1w')).toBe('2026-11-09');
    expect(horizonEnd('2026-11-02', '1m')).toBe('2026-12-02');
    expect(horizonEnd('2026-11-30', '3m')).toBe('2027-02-28');
    expect(horizonEnd('2028-01-31', '1m')).toBe('2028-02-29');
    expect(addCalendarMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addCalendarMonths('2026-10-31', 3)).toBe('2027-01-31');
  });

  it('count the observations up to the end: weekdays for daily series, whole weeks for weekly', () => {
    expect(observationSteps('daily', '2026-11-02', '2026-11-09')).toBe(5);
    expect(observationSteps('daily', '2026-11-06', '2026-11-09')).toBe(1); // Friday → Monday
    expect(observationSteps('daily', '2026-11-02', '2026-11-02')).toBe(0);
    expect(observationSteps('weekly', '2026-11-02', '2026-12-02')).toBe(4);
    expect(observationSteps('weekly', '2026-11-02', '2026-11-08')).toBe(0);
  });
});

describe('the flat band', () => {
  it('is half the median absolute move over the horizon in the last two years, to 0.1 %', () => {
    // Alternating +4 % / −4 % weekly: every 1-week move is about 4 %, so flat is ±2.0 %.
    const points = Array.from({ length: 60 }, (_, i) => pt(addDays('2025-09-01', 7 * i), i % 2 ? 104 : 100));
    const base = points.at(-1)!.date;
    expect(flatBandPct(points, 'weekly', '1w', base)).toBe(2);
    // Two-week moves are 0: the 1-month (4-week) band falls to its floor.
    expect(flatBandPct(points, 'weekly', '1m', base)).toBe(FLAT_BAND.minPct);
  });

  it('keeps within 0.2–10 % and falls back per horizon without enough history', () => {
    const wild = Array.from({ length: 60 }, (_, i) => pt(addDays('2025-09-01', 7 * i), i % 2 ? 160 : 100));
    expect(flatBandPct(wild, 'weekly', '1w', wild.at(-1)!.date)).toBe(FLAT_BAND.maxPct);
    const few = wild.slice(0, 8);
    expect(flatBandPct(few, 'weekly', '1w', few.at(-1)!.date)).toBe(1);
    expect(flatBandPct(few, 'weekly', '3m', few.at(-1)!.date)).toBe(3);
    // Only prices before the base date count.
    const later = [...few, pt(addDays(few.at(-1)!.date, 7), 1)];
    expect(flatBandPct(later, 'weekly', '1w', few.at(-1)!.date)).toBe(1);
  });

  it('decides the direction; its edges are flat', () => {
    expect(directionOf(1010, 1000, 1)).toBe('flat');
    expect(directionOf(990, 1000, 1)).toBe('flat');
    expect(directionOf(1010.01, 1000, 1)).toBe('up');
    expect(directionOf(989.99, 1000, 1)).toBe('down');
    // 1,150 × 1.02 computed another way is still the edge.
    expect(directionOf(1150 * 1.02, 1150, 2)).toBe('flat');
  });

  it('says which ranges allow a direction', () => {
    expect(rangeAllows('up', 1000, 1011, 1000, 1)).toBe(true);
    expect(rangeAllows('up', 990, 1010, 1000, 1)).toBe(false);
    expect(rangeAllows('down', 985, 1005, 1000, 1)).toBe(true);
    expect(rangeAllows('down', 990, 1050, 1000, 1)).toBe(false);
    expect(rangeAllows('flat', 1005, 1030, 1000, 1)).toBe(true);
    expect(rangeAllows('flat', 1011, 1030, 1000, 1)).toBe(false);
    expect(rangeAllows('flat', 950, 989, 1000, 1)).toBe(false);
  });

  it('finds the last point on or before a date', () => {
    const points = [pt('2026-11-02', 1), pt('2026-11-09', 2), pt('2026-11-16', 3)];
    expect(lastPointOn(points, '2026-11-10')).toEqual(points[1]);
    expect(lastPointOn(points, '2026-11-16')).toEqual(points[2]);
    expect(lastPointOn(points, '2026-11-01')).toBeNull();
  });
});

describe('the desk’s input', () => {
  const good = { seriesId: 'historical.ppRaffia.cif-ns', horizon: '1w', direction: 'up', low: 1020, high: '1,060', rationale: ' Firmer. ' };

  it('reads a good call, prices as numbers or the form’s text', () => {
    const parsed = DeskForecastInput.parse(good);
    expect(parsed).toEqual({ seriesId: 'historical.ppRaffia.cif-ns', horizon: '1w', direction: 'up', low: 1020, high: 1060, rationale: 'Firmer.', supersedes: null });
    expect(DeskForecastInput.parse({ ...good, supersedes: 'f0' }).supersedes).toBe('f0');
  });

  it.each([
    ['an unknown series', { ...good, seriesId: 'nope' }, 'seriesId', 'There is no such series.'],
    ['no series', { ...good, seriesId: undefined }, 'seriesId', 'Choose the series.'],
    ['a horizon we do not publish', { ...good, horizon: '2w' }, 'horizon', 'The horizon must be 1w, 1m or 3m.'],
    ['an unknown direction', { ...good, direction: 'sideways' }, 'direction', 'The direction must be up, flat or down.'],
    ['a price that is not a number', { ...good, low: 'abc' }, 'low', 'The low end of the range must be a price above zero.'],
    ['a negative price', { ...good, low: -5 }, 'low', 'The low end of the range must be a price above zero.'],
    ['an infinite price', { ...good, low: Number.POSITIVE_INFINITY }, 'low', 'The low end of the range must be a number.'],
    ['a price of another type', { ...good, high: true }, 'high', 'The high end of the range must be a number.'],
    ['a range upside down', { ...good, low: 1060, high: 1020 }, 'high', 'The high end of the range must be above the low end.'],
    ['an empty range', { ...good, low: 1020, high: 1020 }, 'high', 'The high end of the range must be above the low end.'],
    ['a blank rationale', { ...good, rationale: '   ' }, 'rationale', 'The rationale is required.'],
    ['a rationale too long', { ...good, rationale: 'x'.repeat(4001) }, 'rationale', 'The rationale is too long (4,000 characters at most).'],
    ['an empty supersedes', { ...good, supersedes: '' }, 'supersedes', 'supersedes must be the id of the forecast this one corrects.'],
    ['a field the server sets', { ...good, baseValue: 900 }, '', 'Unrecognized key: "baseValue"'],
  ] as const)('refuses %s', (_label, input, field, message) => {
    const parsed = DeskForecastInput.safeParse(input);
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues[0]!;
    expect(issue.path.join('.')).toBe(field);
    expect(issue.message).toBe(message);
  });

  it('checks the range against the last price and the flat band', () => {
    const input = DeskForecastInput.parse(good);
    const base = pt('2026-11-02', 1000);
    expect(checkAgainstBase(input, base, 1)).toBeNull();
    expect(checkAgainstBase(input, null, 1)).toMatchObject({ code: 'no_price', field: 'seriesId' });
    expect(checkAgainstBase({ ...input, low: 10200, high: 10600 }, base, 1)).toMatchObject({ code: 'invalid_input', field: 'high' });
    expect(checkAgainstBase({ ...input, low: 400, high: 1010 }, base, 1)).toMatchObject({ code: 'invalid_input', field: 'low' });
    const refusal = checkAgainstBase({ ...input, low: 995, high: 1005 }, base, 1);
    expect(refusal).toEqual({ code: 'invalid_input', field: 'direction', message: 'An up call needs a high above the flat band: flat is 990–1,010 (±1% of 1,000).' });
    expect(checkAgainstBase({ ...input, direction: 'down' }, base, 1)?.message).toMatch(/^A down call needs a low below the flat band/);
    expect(checkAgainstBase({ ...input, direction: 'flat' }, base, 1)?.message).toMatch(/^A flat call needs a range that meets the flat band/);
  });

  it('lets a desk call be corrected while it is open, by the same series and horizon only', () => {
    const target = call();
    const same = { seriesId: target.seriesId, horizon: target.horizon };
    expect(checkSupersedes(target, same, '2026-11-05')).toBeNull();
    expect(checkSupersedes(null, same, '2026-11-05')).toMatchObject({ code: 'not_correctable', field: 'supersedes' });
    expect(checkSupersedes(call({ by: { kind: 'baseline', method: 'ets' } }), same, '2026-11-05')?.message).toMatch(/baseline/);
    expect(checkSupersedes(target, { ...same, horizon: '1m' }, '2026-11-05')?.message).toMatch(/same series and horizon/);
    expect(checkSupersedes(target, { ...same, seriesId: 'fx.usdinr' }, '2026-11-05')?.message).toMatch(/same series and horizon/);
    expect(checkSupersedes(target, same, '2026-11-09')?.message).toMatch(/has ended/);
  });

  it('becomes a record with the server’s base, band, author and instant', () => {
    const input = DeskForecastInput.parse({ ...good, supersedes: 'f0' });
    const record = deskForecastOf(input, { id: 'f2', base: pt('2026-11-02', 1000), flatBandPct: 1, by: desk, now: new Date('2026-11-03T05:00:00Z') });
    expect(record).toEqual(call({ id: 'f2', publishedAt: '2026-11-03T05:00:00.000Z', supersedes: 'f0' }));
  });
});

describe('which price counts', () => {
  const points = [pt('2026-11-02', 1000), pt('2026-11-06', 1015), pt('2026-11-09', 1040), pt('2026-11-16', 1100)];

  it('is the point on the end date, as soon as it is there', () => {
    expect(actualFor(call(), 'weekly', points, '2026-11-09')).toEqual({ kind: 'found', point: pt('2026-11-09', 1040) });
  });

  it('is nothing before the end date (open)', () => {
    expect(actualFor(call(), 'weekly', points, '2026-11-08')).toEqual({ kind: 'open' });
  });

  it('else the last point before it within the tolerance, once the settling days have passed', () => {
    const noEnd = points.filter((p) => p.date !== '2026-11-09');
    expect(actualFor(call(), 'weekly', noEnd, '2026-11-09')).toEqual({ kind: 'awaiting' });
    expect(actualFor(call(), 'weekly', noEnd, addDays('2026-11-09', SETTLE_DAYS - 1))).toEqual({ kind: 'awaiting' });
    expect(actualFor(call(), 'weekly', noEnd, addDays('2026-11-09', SETTLE_DAYS))).toEqual({ kind: 'found', point: pt('2026-11-06', 1015) });
  });

  it('never the base date or a point outside the tolerance (unscorable yet)', () => {
    const onlyBase = [pt('2026-11-02', 1000), pt('2026-11-16', 1100)];
    expect(actualFor(call(), 'weekly', onlyBase, '2026-11-30')).toEqual({ kind: 'awaiting' });
    // A daily series looks back 4 days: a point 5 days before the end does not count.
    const daily = call({ baseDate: '2026-10-30', endDate: '2026-11-06' });
    expect(actualWindow(daily, 'daily')).toEqual({ from: '2026-11-02', to: '2026-11-06' });
    expect(actualFor(daily, 'daily', [pt('2026-11-01', 1), pt('2026-11-02', 2)], '2026-11-20')).toEqual({ kind: 'found', point: pt('2026-11-02', 2) });
    expect(actualFor(daily, 'daily', [pt('2026-11-01', 1)], '2026-11-20')).toEqual({ kind: 'awaiting' });
    expect(actualWindow(call(), 'weekly')).toEqual({ from: '2026-11-03', to: '2026-11-09' });
  });
});

describe('scoring', () => {
  it('inside the range, direction right, % error against the mid', () => {
    const o = outcomeOf(call(), 1040);
    expect(o).toEqual({ insideRange: true, actualDirection: 'up', directionRight: true, absPctError: 0 });
    const low = outcomeOf(call(), 1020);
    expect(low.insideRange).toBe(true);
    expect(low.absPctError).toBeCloseTo((20 / 1020) * 100, 10);
  });

  it('outside the range, direction right', () => {
    const o = outcomeOf(call(), 1100);
    expect(o).toMatchObject({ insideRange: false, actualDirection: 'up', directionRight: true });
    expect(o.absPctError).toBeCloseTo((60 / 1100) * 100, 10);
    expect(outcomeOf(call(), 1019.99).insideRange).toBe(false);
  });

  it('direction wrong: flat within the band, down below it', () => {
    expect(outcomeOf(call(), 1005)).toMatchObject({ insideRange: false, actualDirection: 'flat', directionRight: false });
    const down = outcomeOf(call(), 950);
    expect(down).toMatchObject({ insideRange: false, actualDirection: 'down', directionRight: false });
    expect(down.absPctError).toBeCloseTo((90 / 950) * 100, 10);
    expect(outcomeOf(call({ direction: 'flat', low: 990, high: 1015 }), 1005)).toMatchObject({ insideRange: true, directionRight: true });
  });

  it('scores once, and keeps the score while its price stands', () => {
    const points = [pt('2026-11-02', 1000), pt('2026-11-09', 1040)];
    expect(scoreFor(call(), 'weekly', points, '2026-11-08', null, T0)).toBeNull();
    const first = scoreFor(call(), 'weekly', points, '2026-11-09', null, T0)!;
    expect(first).toEqual({
      forecastId: 'f1',
      revision: 1,
      scoredAt: T0.toISOString(),
      actual: pt('2026-11-09', 1040),
      outcome: { insideRange: true, actualDirection: 'up', directionRight: true, absPctError: 0 },
      earlier: [],
    });
    // Later prices, later days: the same object.
    expect(scoreFor(call(), 'weekly', [...points, pt('2026-11-16', 900)], '2026-12-30', first, T1)).toBe(first);
    // A clock that went back does not undo it.
    expect(scoreFor(call(), 'weekly', points, '2026-11-01', first, T1)).toBe(first);
  });

  it('re-scores and marks when the price it rests on is corrected', () => {
    const first = scoreFor(call(), 'weekly', [pt('2026-11-09', 1040)], '2026-11-09', null, T0)!;
    const corrected = scoreFor(call(), 'weekly', [pt('2026-11-09', 1004)], '2026-11-20', first, T1)!;
    expect(corrected).toMatchObject({ forecastId: 'f1', revision: 2, scoredAt: T1.toISOString(), actual: pt('2026-11-09', 1004) });
    expect(corrected.outcome).toMatchObject({ insideRange: false, actualDirection: 'flat', directionRight: false });
    expect(corrected.earlier).toEqual([{ scoredAt: first.scoredAt, actual: first.actual, outcome: first.outcome }]);
    // Corrected back: a third revision, both earlier ones kept.
    const third = scoreFor(call(), 'weekly', [pt('2026-11-09', 1040)], '2026-11-21', corrected, T1)!;
    expect(third.revision).toBe(3);
    expect(third.earlier.map((e) => e.actual?.value)).toEqual([1040, 1004]);
  });

  it('marks a score whose price was deleted, and scores it again when another counts', () => {
    const first = scoreFor(call(), 'weekly', [pt('2026-11-09', 1040)], '2026-11-09', null, T0)!;
    const withdrawn = scoreFor(call(), 'weekly', [], '2026-11-10', first, T1)!;
    expect(withdrawn).toMatchObject({ revision: 2, actual: null, outcome: null });
    expect(callStatus(call(), withdrawn, '2026-11-10')).toBe('withdrawn');
    const again = scoreFor(call(), 'weekly', [pt('2026-11-06', 1030)], '2026-11-12', withdrawn, T1)!;
    expect(again).toMatchObject({ revision: 3, actual: pt('2026-11-06', 1030) });
  });

  it('knows which price writes can touch a score', () => {
    expect(touchedBy(call(), 'weekly', ['2026-11-09'])).toBe(true);
    expect(touchedBy(call(), 'weekly', ['2026-11-03'])).toBe(true);
    expect(touchedBy(call(), 'weekly', ['2026-11-02', '2026-11-10'])).toBe(false);
  });

  it('tells open, awaiting, scored; matured only after the end date', () => {
    const scored = scoreFor(call(), 'weekly', [pt('2026-11-09', 1040)], '2026-11-09', null, T0);
    expect(callStatus(call(), null, '2026-11-09')).toBe('open');
    expect(callStatus(call(), null, '2026-11-10')).toBe('awaiting');
    expect(callStatus(call(), scored, '2026-11-09')).toBe('scored');
    expect(isMatured(call(), '2026-11-09')).toBe(false);
    expect(isMatured(call(), '2026-11-10')).toBe(true);
  });
});

describe('the scoreboard', () => {
  const TODAY = '2026-11-26';
  const baselineOf = (f: Forecast, low: number, high: number): Forecast => ({ ...f, id: `b-${f.id}`, by: { kind: 'baseline', method: 'ets' }, low, high, direction: 'flat', rationale: '' });
  const score = (f: Forecast, actual: number): Score => scoreFor(f, 'weekly', [pt(f.endDate, actual)], f.endDate, null, T0)!;

  // Three desk calls in the last twelve months, one older, one open, with baseline twins.
  const a = call({ id: 'a' });
  const b = call({ id: 'b', baseDate: '2026-10-05', endDate: '2026-10-12', direction: 'down', low: 960, high: 990 });
  const c = call({ id: 'c', baseDate: '2026-09-07', endDate: '2026-10-07', horizon: '1m', direction: 'flat', low: 980, high: 1020 });
  const old = call({ id: 'old', baseDate: '2025-11-10', endDate: '2025-11-17' });
  const open = call({ id: 'open', baseDate: '2026-11-23', endDate: '2026-11-30' });
  const forecasts = [a, b, c, old, open, baselineOf(a, 990, 1030), baselineOf(b, 980, 1020), baselineOf(c, 970, 1030)];
  const scores = new Map<string, Score>([
    ['a', score(a, 1040)], // inside, up right; error 0
    ['b', score(b, 1000)], // outside, flat ≠ down; error |1000 − 975| / 1000 = 2.5 %
    ['c', score(c, 1030)], // outside, up ≠ flat; error 30 / 1030
    ['old', score(old, 1040)],
    ['b-a', score(forecasts[5]!, 1040)], // outside, flat ≠ up; 30 / 1040
    ['b-b', score(forecasts[6]!, 1000)], // inside, flat right; 0
    // c's twin has no score yet: not a pair.
  ]);

  it('counts the desk’s scored calls of the last twelve months', () => {
    const board = scoreboardOf(forecasts, scores, TODAY);
    expect(board).toMatchObject({ from: '2025-11-27', to: TODAY, horizon: 'all', pairs: 2, deskCloser: 1 });
    expect(board.desk).toMatchObject({ calls: 3, inside: 1, directionRight: 1 });
    expect(board.desk.hitRate).toBeCloseTo(1 / 3, 10);
    expect(board.desk.directionAccuracy).toBeCloseTo(1 / 3, 10);
    expect(board.desk.mape).toBeCloseTo((0 + 2.5 + (30 / 1030) * 100) / 3, 10);
    expect(board.desk.meanWidthPct).toBeCloseTo((4 + 3 + 4) / 3, 10);
    expect(board.baseline).toMatchObject({ calls: 2, inside: 1, directionRight: 1 });
    expect(board.baseline.mape).toBeCloseTo(((30 / 1040) * 100 + 0) / 2, 10);
  });

  it('by horizon', () => {
    const week = scoreboardOf(forecasts, scores, TODAY, '1w');
    expect(week.desk.calls).toBe(2);
    expect(scoreboardOf(forecasts, scores, TODAY, '3m').desk).toEqual(tally([]));
    expect(tally([])).toEqual({ calls: 0, inside: 0, directionRight: 0, hitRate: null, directionAccuracy: null, mape: null, meanWidthPct: null });
  });

  it('leaves out a score whose price was withdrawn', () => {
    const withdrawn = new Map(scores);
    withdrawn.set('a', scoreFor(a, 'weekly', [], '2026-11-12', scores.get('a')!, T1)!);
    expect(scoreboardOf(forecasts, withdrawn, TODAY).desk.calls).toBe(2);
  });

  it('pairs a desk call with the baseline from the same last price', () => {
    expect(twinKey(a)).toBe(twinKey(forecasts[5]!));
    expect(twinKey(a)).not.toBe(twinKey(b));
  });

  it('gives the predicted-vs-actual rows per end date, oldest first, in prices and as % of the base', () => {
    const rows = predictedVsActual(forecasts, scores, TODAY, '1w');
    expect(rows.map((r) => r.endDate)).toEqual(['2026-10-12', '2026-11-09']);
    expect(rows[1]).toEqual({
      endDate: '2026-11-09',
      baseDate: '2026-11-02',
      baseValue: 1000,
      low: 1020,
      high: 1060,
      mid: 1040,
      actual: 1040,
      insideRange: true,
      directionRight: true,
      baseline: { low: 990, high: 1030, mid: 1010 },
    });
    expect(asChangeFromBase(rows[1]!)).toEqual({
      endDate: '2026-11-09',
      baseDate: '2026-11-02',
      low: 2,
      high: 6,
      mid: 4,
      actual: 4,
      insideRange: true,
      directionRight: true,
      baseline: { low: -1, high: 3, mid: 1 },
    });
    // A correction with the same end date: the later publication is the row.
    const fix = call({ id: 'a2', low: 1030, high: 1050, publishedAt: '2026-11-03T11:00:00.000Z', supersedes: 'a' });
    const withFix = new Map(scores).set('a2', score(fix, 1040));
    const fixed = predictedVsActual([...forecasts, fix], withFix, TODAY, '1w');
    expect(fixed).toHaveLength(2);
    expect(fixed[1]).toMatchObject({ low: 1030, high: 1050 });
    // …while the scoreboard counts both calls.
    expect(scoreboardOf([...forecasts, fix], withFix, TODAY, '1w').desk.calls).toBe(3);
  });
});

describe('what the pages show', () => {
  const TODAY = '2026-11-26';
  const baseline = (over: Partial<Forecast>): Forecast => call({ by: { kind: 'baseline', method: 'ets' }, rationale: '', direction: 'flat', ...over });
  // Matured and scored; matured and awaiting; open; an open call corrected by another open one.
  const done = call({ id: 'done' });
  const waiting = call({ id: 'waiting', baseDate: '2026-11-16', endDate: '2026-11-23' });
  const open = call({ id: 'open', baseDate: '2026-11-23', endDate: '2026-11-30', low: 1100, high: 1150, publishedAt: '2026-11-23T11:00:00.000Z' });
  const openFixed = call({ id: 'open-fix', baseDate: '2026-11-24', endDate: '2026-12-01', low: 1110, high: 1160, publishedAt: '2026-11-24T11:00:00.000Z', supersedes: 'open' });
  const month = call({ id: 'month', horizon: '1m', baseDate: '2026-11-02', endDate: '2026-12-02' });
  const twins = [baseline({ id: 'b-done', low: 990, high: 1030 }), baseline({ id: 'b-new', baseDate: '2026-11-25', endDate: '2026-12-02', low: 1090, high: 1170 })];
  const forecasts = [done, waiting, open, openFixed, month, ...twins];
  const scores = new Map<string, Score>([
    ['done', scoreFor(done, 'weekly', [pt('2026-11-09', 1040)], TODAY, null, T0)!],
    ['b-done', scoreFor(twins[0]!, 'weekly', [pt('2026-11-09', 1040)], TODAY, null, T0)!],
  ]);

  it('finds the latest open desk call (a correction replaces what it corrects) and the latest baseline', () => {
    expect(latestOpenDeskCall(forecasts, '1w', TODAY)?.id).toBe('open-fix');
    expect(latestOpenDeskCall(forecasts, '1m', TODAY)?.id).toBe('month');
    expect(latestOpenDeskCall(forecasts, '3m', TODAY)).toBeNull();
    expect(latestOpenDeskCall([done], '1w', TODAY)).toBeNull();
    expect(latestBaseline(forecasts, '1w')?.id).toBe('b-new');
    expect(latestBaseline(forecasts, '3m')).toBeNull();
  });

  it('lists the desk’s calls newest first with how each stands', () => {
    const rows = deskCallRows(forecasts, scores, TODAY, '1w');
    expect(rows.map((r) => [r.forecast.id, r.status, r.supersededBy])).toEqual([
      ['open-fix', 'open', null],
      ['open', 'open', 'open-fix'],
      ['waiting', 'awaiting', null],
      ['done', 'scored', null],
    ]);
    const items = callItemsInPrices(rows);
    expect(items[3]).toMatchObject({ called: '1,020–1,060', actual: '1,040', insideRange: true, directionRight: true, error: '0.0%', notes: [] });
    expect(items[1]!.notes).toEqual(['Corrected by a later call (both count).']);
    expect(items[0]!.notes).toEqual(['A correction of an earlier call (both count).']);
    expect(items[2]).toMatchObject({ actual: null, error: null, insideRange: null });
  });

  it('marks a re-scored call with the price it was scored against before', () => {
    const first = scores.get('done')!;
    const rescored = new Map(scores).set('done', scoreFor(done, 'weekly', [pt('2026-11-09', 1100)], TODAY, first, T1)!);
    const item = callItemsInPrices(deskCallRows([done], rescored, TODAY, '1w'))[0]!;
    expect(item).toMatchObject({ actual: '1,100', insideRange: false });
    expect(item.notes).toEqual(['Re-scored after a price correction (it was scored against 1,040 on 9th Nov 2026).']);
  });

  it('gives the public only matured calls, and no price level', () => {
    const record = publicTrackRecord(forecasts, scores, TODAY, '1w');
    expect(record.calls.map((c) => c.id)).toEqual(['waiting', 'done']);
    const text = JSON.stringify(record);
    for (const id of ['open', 'open-fix', 'b-new']) expect(text, id).not.toContain(`"${id}"`);
    for (const key of ['baseValue', 'rationale', 'by']) expect(text, key).not.toContain(`"${key}":`);
    // Every number in it is a share, a percentage or a count: none is a price (about 1,000 here).
    const numbers: number[] = [];
    JSON.parse(text, (_key, value: unknown) => (typeof value === 'number' && numbers.push(value), value));
    expect(numbers.length).toBeGreaterThan(20);
    expect(Math.max(...numbers.map(Math.abs))).toBeLessThan(100);
    expect(record.calls[1]).toMatchObject({ lowPct: 2, highPct: 6, actualPct: 4, status: 'scored', corrections: 0 });
    expect(record.scoreboard.desk).toMatchObject({ calls: 1, inside: 1 });
    expect(record.chart).toEqual([{ endDate: '2026-11-09', baseDate: '2026-11-02', low: 2, high: 6, mid: 4, actual: 4, insideRange: true, directionRight: true, baseline: { low: -1, high: 3, mid: 1 } }]);
    const items = callItemsInChanges(record.calls);
    expect(items[1]).toMatchObject({ called: '+2.0% to +6.0%', actual: '+4.0%', error: '0.0%' });
    expect(items[0]).toMatchObject({ status: 'awaiting', actual: null });
    // A call ending today is not matured yet, even when scored.
    const endsToday = call({ id: 'today', baseDate: '2026-11-19', endDate: TODAY });
    const scoredToday = new Map(scores).set('today', scoreFor(endsToday, 'weekly', [pt(TODAY, 1040)], TODAY, null, T1)!);
    expect(publicTrackRecord([...forecasts, endsToday], scoredToday, TODAY, '1w').calls.map((c) => c.id)).not.toContain('today');
  });

  it('draws the fan from each base to its end, in the desk’s and the baseline’s colours', () => {
    const history = [pt('2026-11-16', 1090), pt('2026-11-23', 1120)];
    const { lines, bands } = fanChart(history, openFixed, twins[1]!);
    expect(lines.map((l) => l.id)).toEqual(['Price', 'Desk (mid)', 'Baseline (mid)']);
    expect(lines[1]!.data).toEqual([{ x: '2026-11-24', y: 1000 }, { x: '2026-12-01', y: 1135 }]);
    expect(bands).toEqual([
      { id: 'Desk (mid)', color: FAN_COLORS.desk, points: [{ x: '2026-11-24', low: 1000, high: 1000 }, { x: '2026-12-01', low: 1110, high: 1160 }] },
      { id: 'Baseline (mid)', color: FAN_COLORS.baseline, points: [{ x: '2026-11-25', low: 1000, high: 1000 }, { x: '2026-12-02', low: 1090, high: 1170 }] },
    ]);
    expect(fanChart(history, null, null)).toEqual({ lines: [{ id: 'Price', data: [{ x: '2026-11-16', y: 1090 }, { x: '2026-11-23', y: 1120 }] }], bands: [] });
  });

  it('draws predicted against actual with the desk’s range shaded', () => {
    const rows = [
      { endDate: '2026-11-02', baseDate: '2026-10-26', low: 1, high: 3, mid: 2, actual: 2.5, insideRange: true, directionRight: true, baseline: null },
      { endDate: '2026-11-09', baseDate: '2026-11-02', low: 2, high: 6, mid: 4, actual: 4, insideRange: true, directionRight: true, baseline: { low: -1, high: 3, mid: 1 } },
    ];
    const { lines, bands } = predictedVsActualChart(rows);
    expect(lines.map((l) => [l.id, l.data.map((d) => d.y)])).toEqual([
      ['Price at end', [2.5, 4]],
      ['Desk (mid)', [2, 4]],
      ['Baseline (mid)', [1]],
    ]);
    expect(bands[0]!.points).toEqual([{ x: '2026-11-02', low: 1, high: 3 }, { x: '2026-11-09', low: 2, high: 6 }]);
  });

  it('writes changes and shares as the price screens do', () => {
    expect(signedPct(2.345)).toBe('+2.3%');
    expect(signedPct(-0.04)).toBe('0.0%');
    expect(signedPct(-1.25, 2)).toBe('−1.25%');
    expect(sharePct(0.556)).toBe('56%');
    expect(sharePct(null)).toBe('—');
    expect(changeRangeText(-1, 2.5)).toBe('−1.0% to +2.5%');
    expect(shortDate('2026-12-04')).toBe('4 Dec 26');
    expect(shortDate('2026-11-27', false)).toBe('27 Nov');
    expect(rangeText({ low: 1022.43, high: 1098.86 })).toBe('1,022–1,099');
    expect(rangeText({ low: 111.46, high: 114.04 })).toBe('111.5–114');
    expect(rangeText({ low: 87.456, high: 88.1 })).toBe('87.46–88.1');
  });
});
