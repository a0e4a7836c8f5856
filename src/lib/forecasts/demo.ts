/**
 * A year of the desk's past calls for the demo, generated from a series' demo prices so the
 * scoreboard means something on a fresh start. Deterministic: the same points, day and seed
 * give the same calls, and a call's draws depend only on its series, horizon and base date.
 *
 * The desk is modelled as a forecaster with partial foresight: the centre of its call (as a
 * log change from the base) is ρ × what really happened + √(1−ρ²) × noise of the horizon's usual
 * size, and its range is a little narrower than honest (desks are overconfident). With ρ = 0.55
 * that gives a desk right on direction a little over half the time and inside its range about
 * two times in three, clearly better than the baseline on direction and far from perfect
 * (tests/unit/forecasts.test.ts holds it to a band). A call whose end is after today cannot know
 * what happened: it is drawn from the noise alone (the store-backed phase seeds calls once, so
 * they never change; an in-memory source re-draws such a call when it matures).
 *
 * Cadence: a 1-week call on every Monday (daily series) or every price date (weekly series)
 * of the last fifteen months, and 1-month and 3-month calls on the first of those each month;
 * about 3 % of calls get a correction on the next price date, which supersedes them.
 */
import { createRandom, hashString } from '../demoData.ts';
import { addDays, toDisplayDate, type IsoDate } from '../dates.ts';
import { formatNumber, formatPercentSize, roundTo } from '../numbers.ts';
import type { PricePoint } from '../priceTypes.ts';
import type { SeriesDef } from '../seriesCatalog.ts';
import {
  directionOf,
  flatBandPct,
  HORIZON_ADJECTIVES,
  horizonEnd,
  lastPointOn,
  NOMINAL_STEPS,
  rangeAllows,
  type Direction,
  type Forecast,
  type ForecastMaker,
  type Horizon,
} from './model.ts';
import { actualFor } from './scoring.ts';

export const DEMO_DESK: Extract<ForecastMaker, { kind: 'desk' }> = { kind: 'desk', uid: 'demo-editor', name: 'PolyIndex price desk' };

export const DEMO_SKILL = {
  /** Correlation of the desk's centre with what happened (log changes). */
  correlation: 0.55,
  /** The range's half-width against an honest 80 % interval of the desk's own error. */
  widthFactor: 0.8,
  correctionRate: 0.03,
  /** How far back base dates go: twelve months of ended calls, and three more for the 3-month ones. */
  days: 365 + 92,
} as const;

const Z80 = 1.2815515655446004;
/** Calls are published at 16:30 IST on their base date (11:00 UTC). */
const PUBLISH_TIME = 'T11:00:00.000Z';

const weekday = (date: IsoDate): number => new Date(`${date}T00:00:00Z`).getUTCDay();

function normal(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** A price step traders quote in: about 0.5 % of the price, on a round step (1,150–1,190; 87.5–88.1). */
export function priceTick(base: number): number {
  const steps = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 50];
  return steps.filter((s) => s <= base * 0.005).at(-1) ?? 0.01;
}

const onTick = (value: number, tick: number): number => roundTo(Math.round(value / tick) * tick, 2);

/** The standard deviation of log changes over `steps` observations in the two years before index `at`. */
function horizonSigma(logs: readonly number[], dates: readonly IsoDate[], at: number, steps: number): number | null {
  const from = addDays(dates[at]!, -730);
  let first = at;
  while (first > 0 && dates[first - 1]! > from) first--;
  const changes: number[] = [];
  for (let i = first; i + steps <= at; i++) changes.push(logs[i + steps]! - logs[i]!);
  if (changes.length < 10) return null;
  const mean = changes.reduce((s, c) => s + c, 0) / changes.length;
  return Math.sqrt(changes.reduce((s, c) => s + (c - mean) ** 2, 0) / (changes.length - 1));
}

const WORDS: Readonly<Record<Direction, { readonly head: readonly string[]; readonly drivers: readonly string[] }>> = {
  up: {
    head: ['Firmer', 'Higher', 'Upside'],
    drivers: [
      'Upstream feedstock costs are climbing and producers are passing them on',
      'Converters are restocking ahead of the festive season',
      'Unplanned outages in North-East Asia have tightened supply',
      'Freight from the Middle East has firmed and offers followed',
      'Producers announced higher list prices for the coming cycle',
    ],
  },
  down: {
    head: ['Softer', 'Lower', 'Downside'],
    drivers: [
      'Feedstock costs are easing with crude',
      'Demand is slow after the season and inventories are building',
      'New capacity in China is adding supply to the region',
      'Middle East sellers are cutting offers to clear cargoes',
      'A firmer rupee is lowering landed costs',
    ],
  },
  flat: {
    head: ['Range-bound', 'Steady', 'Sideways'],
    drivers: [
      'Feedstock costs and demand are roughly in balance',
      'Buyers are cautious and sellers are holding their offers',
      'Inventories are at normal levels on both sides',
      'Cost support from feedstocks meets thin buying interest',
    ],
  },
};
const WATCH = ['crude oil and naphtha', 'freight rates', 'the rupee', 'Chinese demand', 'producer list prices', 'monsoon-season demand', 'fresh Middle East offers'];

const pick = <T>(list: readonly T[], random: () => number): T => list[Math.floor(random() * list.length)]!;
const shown = (value: number): string => formatNumber(value);

function rationaleOf(
  call: { readonly direction: Direction; readonly horizon: Horizon; readonly low: number; readonly high: number; readonly endDate: IsoDate },
  series: SeriesDef,
  recentPct: number | null,
  random: () => number,
  corrects: Forecast | null,
): string {
  const words = WORDS[call.direction];
  const over = call.horizon === '1w' ? 'the next week' : call.horizon === '1m' ? 'the coming month' : 'the next three months';
  const recent =
    recentPct === null ? '' : ` ${series.label} ${Math.abs(recentPct) < 0.05 ? 'was unchanged' : `${recentPct > 0 ? 'rose' : 'fell'} ${formatPercentSize(recentPct, 1)}`} over the past four weeks.`;
  const lead = corrects ? `*Correction of our ${HORIZON_ADJECTIVES[corrects.horizon]} call of ${toDisplayDate(corrects.baseDate)}, which stays on the record.* ` : '';
  return (
    `${lead}**${pick(words.head, random)}** over ${over}.${recent} ${pick(words.drivers, random)}. ` +
    `We expect ${shown(call.low)}–${shown(call.high)} ${series.unit} by ${toDisplayDate(call.endDate)}.\n\n` +
    `*Watch:* ${pick(WATCH, random)}.`
  );
}

export interface DemoForecastOptions {
  readonly series: SeriesDef;
  /** The series' prices up to `today`, ascending. */
  readonly points: readonly PricePoint[];
  readonly today: IsoDate;
  readonly seed?: number;
}

/** The days the desk made its calls: Mondays (daily series) or price dates (weekly), in the window. */
export function demoBaseDates(series: SeriesDef, points: readonly PricePoint[], today: IsoDate): IsoDate[] {
  const from = addDays(today, -DEMO_SKILL.days);
  const inWindow = points.filter((p) => p.date >= from && p.date <= today);
  if (series.frequency === 'weekly') return inWindow.map((p) => p.date);
  // The first price of each Monday-to-Sunday week (Monday, or the next weekday after a holiday).
  const dates: IsoDate[] = [];
  let week = '';
  for (const p of inWindow) {
    const monday = addDays(p.date, -((weekday(p.date) + 6) % 7));
    if (monday !== week) dates.push(p.date);
    week = monday;
  }
  return dates;
}

/** The desk's demo calls on one series, oldest first. */
export function demoDeskForecasts({ series, points, today, seed = 1 }: DemoForecastOptions): Forecast[] {
  const known = points.filter((p) => p.date <= today && p.value > 0);
  const dates = known.map((p) => p.date);
  const logs = known.map((p) => Math.log(p.value));
  const indexOf = new Map(dates.map((d, i) => [d, i]));
  const baseDates = demoBaseDates(series, known, today);
  const forecasts: Forecast[] = [];

  const draw = (horizon: Horizon, at: number, random: () => number, corrects: Forecast | null): Forecast | null => {
    const base = known[at]!;
    const endDate = horizonEnd(base.date, horizon);
    const sigma = horizonSigma(logs, dates, at, NOMINAL_STEPS[series.frequency][horizon]);
    if (sigma === null) return null;
    const band = flatBandPct(known, series.frequency, horizon, base.date);
    const happened = actualFor({ baseDate: base.date, endDate }, series.frequency, known, today);
    const signal = happened.kind === 'found' ? Math.log(happened.point.value / base.value) : null;
    const rho = DEMO_SKILL.correlation;
    const noise = Math.sqrt(1 - rho * rho) * sigma * normal(random);
    const centre = (signal === null ? 0 : rho * signal) + noise;
    const halfWidth = Z80 * sigma * Math.sqrt(1 - rho * rho) * DEMO_SKILL.widthFactor * (0.85 + 0.3 * random());
    const tick = priceTick(base.value);
    let low = onTick(base.value * Math.exp(centre - halfWidth), tick);
    let high = onTick(base.value * Math.exp(centre + halfWidth), tick);
    if (high <= low) high = roundTo(low + tick, 2);
    let direction = directionOf(base.value * Math.exp(centre), base.value, band);
    // Rounding to the tick can pull a range's end back over the band's edge: the call then says what its range says.
    if (!rangeAllows(direction, low, high, base.value, band)) direction = directionOf((low + high) / 2, base.value, band);
    if (low <= 0) low = tick;
    const monthAgo = lastPointOn(known, addDays(base.date, -28));
    const recentPct = monthAgo && monthAgo.date < base.date ? (base.value / monthAgo.value - 1) * 100 : null;
    const publishedAt = `${base.date}${PUBLISH_TIME}`;
    return {
      id: `demo.${series.id}.${horizon}.${base.date}${corrects ? '.correction' : ''}`,
      seriesId: series.id,
      horizon,
      direction,
      low,
      high,
      rationale: rationaleOf({ direction, horizon, low, high, endDate }, series, recentPct, random, corrects),
      by: DEMO_DESK,
      publishedAt,
      baseDate: base.date,
      baseValue: base.value,
      endDate,
      flatBandPct: band,
      supersedes: corrects?.id ?? null,
    };
  };

  let month = '';
  for (const baseDate of baseDates) {
    const at = indexOf.get(baseDate)!;
    const monthly = baseDate.slice(0, 7) !== month;
    month = baseDate.slice(0, 7);
    const callHorizons: Horizon[] = monthly ? ['1w', '1m', '3m'] : ['1w'];
    for (const horizon of callHorizons) {
      const random = createRandom(hashString(`${seed}:${series.id}:${horizon}:${baseDate}`));
      const call = draw(horizon, at, random, null);
      if (!call) continue;
      forecasts.push(call);
      // A correction on the next price date, when there is one by today and the call is still open then.
      if (random() < DEMO_SKILL.correctionRate && at + 1 < known.length && known[at + 1]!.date < call.endDate) {
        const correction = draw(horizon, at + 1, random, call);
        if (correction) forecasts.push(correction);
      }
    }
  }
  return forecasts.sort((a, b) => a.publishedAt.localeCompare(b.publishedAt) || a.id.localeCompare(b.id));
}
