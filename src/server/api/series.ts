/**
 * GET /api/series: several series over one range in one unit (the /compare page's data, and
 * the query every export of a comparison takes). Query validation, the store reads and the
 * answer, given a store; no astro:* imports, so the node:http fast lane can call it as it is.
 * Access is checked by the caller.
 *
 *   ?ids=a,b&from=YYYY-MM-DD&to=YYYY-MM-DD&unit=native|inr_kg|usd_t[&view=prices|indexed][&ma=0|7|30]
 */
import { z } from 'astro/zod';
import { basisJson } from '../../lib/basis.ts';
import type { Correction } from '../../lib/corrections.ts';
import { buildComparison, fxReadStart, lineDecimals, MAX_COMPARE_SERIES, readStart, type Comparison, type ComparisonOptions } from '../../lib/compare/comparison.ts';
import { monthsBefore } from '../../lib/compare/ranges.ts';
import { splitIds } from '../../lib/compare/state.ts';
import { isMovingAverage, views, type MovingAverage } from '../../lib/compare/transforms.ts';
import { compareUnits, conversionFor } from '../../lib/compare/units.ts';
import { isoDateOf, parseIsoDate } from '../../lib/dates.ts';
import { isRange, writtenValue } from '../../lib/quotes.ts';
import type { PricePoint } from '../../lib/priceTypes.ts';
import { CONVERTED_DECIMALS, priceValue, roundTo } from '../../lib/numbers.ts';
import { findSeries, FX_SERIES_ID, seriesBasis, type SeriesDef } from '../../lib/seriesCatalog.ts';
import { seriesCorrections, type CorrectionReader } from '../corrections.ts';
import type { BodyCache } from '../http/bodyCache.ts';
import { preparedBodiesOf } from './prepared.ts';
import type { ApiAnswer } from '../http/answer.ts';
import { preparedAnswer } from '../http/json.ts';
import { parseQuery, type QueryResult } from '../http/query.ts';
import type { PriceStore } from '../store/prices.ts';
import { requireDataAccess } from '../http/access.ts';
import type { EndpointContext, RequestHeaders } from '../edge/endpoint.ts';

const isoDate = (field: 'from' | 'to') =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === '') return undefined;
      const date = parseIsoDate(text);
      if (!date) {
        ctx.addIssue({ code: 'custom', message: `${field} must be a calendar date written YYYY-MM-DD.` });
        return z.NEVER;
      }
      return date;
    });

const idsParam = z
  .string({ error: `ids is required: up to ${MAX_COMPARE_SERIES} series ids separated by commas, such as feedstock.naphtha.japan.` })
  .transform((text, ctx) => {
    const raw = text.split(',').map((id) => id.trim());
    const ids = splitIds(text);
    if (ids.length === 0) ctx.addIssue({ code: 'custom', message: 'ids must name at least one series.' });
    else if (ids.length !== raw.length) ctx.addIssue({ code: 'custom', message: 'ids must name each series once, with no empty entries.' });
    else if (ids.length > MAX_COMPARE_SERIES) ctx.addIssue({ code: 'custom', message: `ids may name at most ${MAX_COMPARE_SERIES} series.` });
    const unknown = ids.find((id) => !findSeries(id));
    if (unknown !== undefined) ctx.addIssue({ code: 'custom', message: `ids: there is no series “${unknown.slice(0, 80)}”.` });
    return ctx.issues?.length ? z.NEVER : ids.map((id) => findSeries(id)!);
  });

/** The query of /api/series and of its exports; "today" is India's. */
export const seriesQuerySchema = (now: Date = new Date()) =>
  z
    .object({
      ids: idsParam,
      from: isoDate('from'),
      to: isoDate('to'),
      unit: z.enum(compareUnits, { error: `unit must be one of ${compareUnits.join(', ')}.` }).optional(),
      view: z.enum(views, { error: `view must be one of ${views.join(', ')}.` }).optional(),
      ma: z
        .string()
        .optional()
        .transform((text, ctx) => {
          if (text === undefined || text === '') return 0 as MovingAverage;
          const n = Number(text);
          if (!/^\d+$/.test(text) || !isMovingAverage(n)) {
            ctx.addIssue({ code: 'custom', message: 'ma must be 0, 7 or 30 (points of the moving average).' });
            return z.NEVER;
          }
          return n;
        }),
    })
    .transform((query, ctx) => {
      const today = isoDateOf(now);
      const to = query.to ?? today;
      const from = query.from ?? monthsBefore(to, 12);
      if (from > to) {
        ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must be on or before to.' });
        return z.NEVER;
      }
      const options: ComparisonOptions = { range: { from, to }, unit: query.unit ?? 'native', view: query.view ?? 'prices', ma: query.ma };
      return { series: query.ids, options };
    });

export interface SeriesQuery {
  readonly series: readonly SeriesDef[];
  readonly options: ComparisonOptions;
}

/**
 * Validates a /api/series query: the 400 names the first bad parameter. A series the unit
 * cannot take is no error: it comes as quoted, saying why (`notConverted`).
 */
export const parseSeriesQuery = (url: URL, now: Date = new Date()): QueryResult<SeriesQuery> => parseQuery(url, seriesQuerySchema(now));

/** Reads what a comparison needs (each series from its look-back, the rate when a conversion uses it) and builds it. */
export async function readComparison(store: PriceStore, query: SeriesQuery): Promise<Comparison> {
  const { series, options } = query;
  const to = options.range.to;
  const needsFx = series.some((s) => {
    const plan = conversionFor(s, options.unit);
    return plan.ok && plan.conversion.fx !== 'none';
  });
  const [fx, ...lines] = await Promise.all([
    needsFx ? store.points(FX_SERIES_ID, { from: fxReadStart(series, options), to }) : Promise.resolve<PricePoint[]>([]),
    ...series.map((s) => store.points(s.id, { from: readStart(s, options), to })),
  ]);
  const result = buildComparison(series, new Map(series.map((s, i) => [s.id, lines[i]!])), fx, options);
  // Every catalog series has its own unit: a failure here is a bug, not input.
  if (!result.ok) throw new Error(result.message);
  return result.comparison;
}

/** The corrected points of each line of a comparison, in the range shown, by series id. */
export async function comparisonCorrections(store: CorrectionReader & Pick<PriceStore, 'points'>, comparison: Comparison): Promise<Map<string, Correction[]>> {
  const lists = await Promise.all(comparison.lines.map((line) => seriesCorrections(store, line.id, comparison.range)));
  return new Map(comparison.lines.map((line, i) => [line.id, lists[i]!]));
}

/**
 * The JSON answer of a comparison: each series with its basis (src/lib/basis.ts), the unit of
 * its values, the conversion used, figures, points and its corrected prices in the range
 * (native values; src/lib/corrections.ts). Numbers are rounded here, at the edge.
 */
export function comparisonJson(comparison: Comparison, corrections: ReadonlyMap<string, readonly Correction[]> = new Map()) {
  const usesFx = comparison.lines.some((line) => line.conversion.fx !== 'none');
  return {
    from: comparison.range.from,
    to: comparison.range.to,
    unit: comparison.unit,
    view: comparison.view,
    ma: comparison.ma,
    valueLabel: comparison.valueLabel,
    fx: usesFx ? { series: FX_SERIES_ID, rule: '₹/US$ reference rate of the date, else the latest rate before it; points before the first rate are left out' } : null,
    series: comparison.lines.map((line) => {
      const decimals = lineDecimals(line, comparison);
      const round = (value: number) => roundTo(value, decimals);
      const basis = seriesBasis(line.id);
      const s = line.stats;
      return {
        id: line.id,
        label: line.label,
        nativeUnit: line.nativeUnit,
        unit: comparison.view === 'indexed' ? 'index' : line.unit,
        decimals,
        basis: basisJson(basis),
        conversion: line.conversion,
        notConverted: line.notConverted?.message ?? null,
        stats: s && {
          ...s,
          first: { date: s.first.date, value: round(s.first.value) },
          last: { date: s.last.date, value: round(s.last.value) },
          change: round(s.change),
          changePct: s.changePct === null ? null : roundTo(s.changePct, CONVERTED_DECIMALS),
          min: { date: s.min.date, value: round(s.min.value) },
          max: { date: s.max.date, value: round(s.max.value) },
          average: roundTo(s.average, CONVERTED_DECIMALS),
        },
        dates: line.points.map((p) => p.date),
        values: line.points.map((p) => writtenValue(p, decimals)),
        // A range-quoted series (its basis' `quotes`) shown as its own or converted prices: each
        // date's low and high beside the value, their mid, written with one decimal more
        // (src/lib/quotes.ts, midDecimals; null on a date quoted as one number).
        // A single-value series, or one smoothed or indexed, has neither.
        ...(line.points.some(isRange)
          ? { lows: line.points.map((p) => (isRange(p) ? round(p.low) : null)), highs: line.points.map((p) => (isRange(p) ? round(p.high) : null)) }
          : {}),
        corrections: (corrections.get(line.id) ?? []).map((c) => ({
          date: c.date,
          value: priceValue(c.value, basis),
          previous: priceValue(c.previous, basis),
          firstPublished: priceValue(c.first, basis),
          correctedOn: c.correctedOn,
          correctedAt: c.correctedAt,
          times: c.times,
        })),
      };
    }),
  };
}


/** Validates the query and answers the comparison (or the 400). */
export async function seriesResponse(store: PriceStore & CorrectionReader, request: { readonly headers: RequestHeaders }, url: URL, cache: BodyCache = preparedBodiesOf(store)): Promise<ApiAnswer> {
  const query = parseSeriesQuery(url);
  if (!query.ok) return query.response;
  const { series, options } = query.data;
  const key = ['api-series', series.map((s) => s.id).join(','), options.range.from, options.range.to, options.unit, options.view, options.ma].join('|');
  const { body, etag } = await cache.get(key, store.version(), async () => {
    const comparison = await readComparison(store, query.data);
    return JSON.stringify(comparisonJson(comparison, await comparisonCorrections(store, comparison)));
  });
  return preparedAnswer(request, body, { etag });
}

/** GET /api/series, as a row of the data API's routing table (src/server/api/routes.ts): both lanes. */
export const series = async ({ locals, store, headers, url }: EndpointContext): Promise<ApiAnswer> =>
  requireDataAccess(locals) ?? seriesResponse(await store(), { headers }, url);
