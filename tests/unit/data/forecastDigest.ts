/**
 * A week of forecasts as the weekly digest reads them (tests/unit/forecastDigest.test.ts): PP
 * Raffia Mumbai with open desk calls beside the baseline, scored calls and their baseline twins;
 * Naphtha Japan with a scored call and no open one.
 */
import type { DigestProduct } from '../../../src/lib/delivery/forecastDigest.ts';
import type { Forecast } from '../../../src/lib/forecasts/model.ts';
import { outcomeOf, type Score } from '../../../src/lib/forecasts/scoring.ts';

/** Monday 30 Nov 2026: the digest's day. */
export const DIGEST_DAY = '2026-11-30';
export const SITE = 'https://polyindex.in';

const desk = { kind: 'desk', uid: 'desk-1', name: 'Desk' } as const;
const baseline = { kind: 'baseline', method: 'ets' } as const;

const forecast = (over: Partial<Forecast> & Pick<Forecast, 'id' | 'seriesId' | 'horizon' | 'direction' | 'low' | 'high' | 'baseDate' | 'baseValue' | 'endDate'>): Forecast => ({
  rationale: '',
  by: desk,
  publishedAt: `${over.baseDate}T11:00:00.000Z`,
  flatBandPct: 1,
  supersedes: null,
  ...over,
});

const scored = (f: Forecast, date: string, value: number): Score => ({ forecastId: f.id, revision: 1, scoredAt: `${date}T12:00:00.000Z`, actual: { date, value }, outcome: outcomeOf(f, value), earlier: [] });

const PP = 'historical.ppRaffia.mumbai';
const ppForecasts: Forecast[] = [
  // Open on 30 Nov.
  forecast({ id: 'd-1w-open', seriesId: PP, horizon: '1w', direction: 'up', low: 104, high: 107, baseDate: '2026-11-27', baseValue: 104.5, endDate: '2026-12-04' }),
  forecast({ id: 'baseline.pp.1w.2026-11-27', by: baseline, seriesId: PP, horizon: '1w', direction: 'flat', low: 102.1, high: 106.3, baseDate: '2026-11-27', baseValue: 104.5, endDate: '2026-12-04' }),
  forecast({ id: 'd-1m-open', seriesId: PP, horizon: '1m', direction: 'down', low: 98, high: 103, baseDate: '2026-11-02', baseValue: 104, endDate: '2026-12-02' }),
  forecast({ id: 'baseline.pp.1m.2026-11-27', by: baseline, seriesId: PP, horizon: '1m', direction: 'flat', low: 100.2, high: 108.4, baseDate: '2026-11-27', baseValue: 104.5, endDate: '2026-12-27' }),
  forecast({ id: 'baseline.pp.3m.2026-11-27', by: baseline, seriesId: PP, horizon: '3m', direction: 'flat', low: 95.6, high: 113.2, baseDate: '2026-11-27', baseValue: 104.5, endDate: '2027-02-27' }),
  // Matured and scored, with the baseline twin of the latest.
  forecast({ id: 'd-1w-20nov', seriesId: PP, horizon: '1w', direction: 'up', low: 104, high: 107, baseDate: '2026-11-13', baseValue: 103, endDate: '2026-11-20' }),
  forecast({ id: 'baseline.pp.1w.2026-11-13', by: baseline, seriesId: PP, horizon: '1w', direction: 'flat', low: 101.9, high: 106.1, baseDate: '2026-11-13', baseValue: 103, endDate: '2026-11-20' }),
  forecast({ id: 'd-1w-13nov', seriesId: PP, horizon: '1w', direction: 'down', low: 100, high: 103, baseDate: '2026-11-06', baseValue: 103.5, endDate: '2026-11-13' }),
  // Scored on its end date, today: not matured, so neither on the record nor among the scored calls.
  forecast({ id: 'd-1w-30nov', seriesId: PP, horizon: '1w', direction: 'up', low: 104, high: 106, baseDate: '2026-11-23', baseValue: 104, endDate: '2026-11-30' }),
];
const ppScores: Score[] = [
  scored(ppForecasts[5]!, '2026-11-20', 105.5),
  scored(ppForecasts[6]!, '2026-11-20', 105.5),
  scored(ppForecasts[7]!, '2026-11-13', 104),
  scored(ppForecasts[8]!, '2026-11-30', 105),
];

const NAPHTHA = 'feedstock.naphtha.japan';
const naphthaForecasts: Forecast[] = [
  forecast({ id: 'n-1m-oct', seriesId: NAPHTHA, horizon: '1m', direction: 'down', low: 590, high: 630, baseDate: '2026-10-15', baseValue: 640, endDate: '2026-11-15' }),
  forecast({ id: 'baseline.n.1m.2026-10-15', by: baseline, seriesId: NAPHTHA, horizon: '1m', direction: 'flat', low: 600, high: 680, baseDate: '2026-10-15', baseValue: 640, endDate: '2026-11-15' }),
];
const naphthaScores: Score[] = [scored(naphthaForecasts[0]!, '2026-11-13', 612), scored(naphthaForecasts[1]!, '2026-11-13', 612)];

export const PRODUCTS: readonly DigestProduct[] = [
  { label: 'PP Raffia · Mumbai ex-works (incl. GST)', unit: '₹/kg', forecasts: ppForecasts, scores: new Map(ppScores.map((s) => [s.forecastId, s])), link: `${SITE}/indian-bazaar/pricePrediction` },
  { label: 'Naphtha · Japan', unit: 'US$/t', forecasts: naphthaForecasts, scores: new Map(naphthaScores.map((s) => [s.forecastId, s])), link: `${SITE}/future-trend/PP` },
];
