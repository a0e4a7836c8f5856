/**
 * The admin's price writes as endpoints: one point set or deleted (with the value the
 * administrator saw, so two concurrent edits cannot silently overwrite each other: 409), and the
 * CSV import (the export's format, all or nothing, one audit entry). Values are checked against
 * the unit's sane range and the decimals the series is quoted in (src/lib/priceRanges.ts).
 */
import type { EndpointHandler } from '../edge/endpoint.ts';
import { z } from 'astro/zod';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { checkImportInSlices, countBySeries, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../../lib/admin/priceImport.ts';
import { parseIsoDate } from '../../lib/dates.ts';
import { priceDateProblem, readQuote } from '../../lib/priceRanges.ts';
import { forecastToday } from '../forecasts/clock.ts';
import { findSeries, seriesBasis, type SeriesDef } from '../../lib/seriesCatalog.ts';
import { json, jsonError, readJson, readTextUpTo } from '../http/responses.ts';
import { store } from '../runtime.ts';
import type { PointEditResult } from '../store/priceAdmin.ts';
import { requireAdmin } from './guard.ts';
import { afterPriceWrite } from '../delivery/priceWrites.ts';
import { datesBySeries, forecastsAfterPriceWrite } from '../forecasts/priceWrites.ts';

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/** A number from JSON, or a plain decimal text from a form field. */
export const numeric = (label: string) =>
  z.union([z.number(), z.string().trim()], { error: `${label} must be a number.` }).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : NUMBER_TEXT.test(v) ? Number(v) : Number.NaN;
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a plain number like 88.5.` });
      return z.NEVER;
    }
    return n;
  });

export const Day = z
  .string({ error: 'The date must be YYYY-MM-DD.' })
  .trim()
  .refine((v) => parseIsoDate(v) !== null, 'The date is not a real day (YYYY-MM-DD).');

/**
 * The date a price is written for: a real day no later than today in India (checked when the
 * request is read; "today" moves only with the test clock of src/server/forecasts/clock.ts, so a
 * browser test can let a forecast's horizon pass and enter its price). Deleting is not held to it: a future-dated point written before this check
 * can still be removed.
 */
export const PriceDay = Day.superRefine((date, ctx) => {
  const problem = priceDateProblem(date, forecastToday());
  if (problem) ctx.addIssue({ code: 'custom', message: `${problem[0]!.toUpperCase()}${problem.slice(1)}.` });
});

/** An optional number: absent, null or an empty form field all mean "not given". */
const optionalNumeric = (label: string) => z.preprocess((v) => (v === '' || v === null ? undefined : v), numeric(label).optional());

export const SetPointBody = z.object({
  date: PriceDay,
  /** Required for a single value; for a range optional (the mid of low and high, derived). */
  value: optionalNumeric('The value'),
  /** A range's ends, where the series is range-quoted (its basis' `quotes`). */
  low: optionalNumeric('The low'),
  high: optionalNumeric('The high'),
  /** The value shown when the form was opened; absent = adding a new date. */
  expected: numeric('The previous value').optional(),
});

export const DeletePointBody = z.object({
  date: Day,
  expected: numeric('The previous value'),
});

function seriesOf(param: string | undefined): SeriesDef | Response {
  const series = param ? findSeries(param) : undefined;
  return series ?? jsonError(404, 'unknown_series', 'There is no such series.', 'series');
}

export function answer(result: PointEditResult): Response {
  switch (result.kind) {
    case 'conflict':
      return json(
        {
          error: {
            code: 'conflict',
            message:
              result.current === null
                ? 'This point no longer exists (someone else changed it). Reload and try again.'
                : `This point now holds ${result.current} (someone else changed it). Reload and try again.`,
            field: 'value',
          },
          current: result.current,
        },
        409,
      );
    case 'unchanged':
      return json({ changed: false });
    case 'written':
      return json({ changed: true, before: result.before, after: result.after, auditId: result.entry.id });
  }
}

/** POST /api/admin/prices/{series}/set `{date, value, expected?}`, or `{date, low, high, expected?}` for a range. */
export const setPoint: EndpointHandler = async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  const series = seriesOf(context.params['series']);
  if (series instanceof Response) return series;
  const input = await readJson(context.request, SetPointBody);
  if (!input.ok) return input.response;
  const reading = readQuote(seriesBasis(series), input.data);
  if (!reading.ok) return jsonError(400, 'invalid_input', `For ${series.label}, ${reading.message}.`, reading.field);
  const result = await (await store()).adminSetPoint({
    seriesId: series.id,
    date: input.data.date,
    ...reading.quote,
    expected: input.data.expected ?? null,
    actor: gate.actor,
    now: new Date(),
  });
  if (result.kind === 'written') {
    void afterPriceWrite({ series: [series.id] });
    void forecastsAfterPriceWrite(new Map([[series.id, [input.data.date]]]));
  }
  return answer(result);
};

/** POST /api/admin/prices/{series}/delete `{date, expected}`. */
export const deletePoint: EndpointHandler = async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  const series = seriesOf(context.params['series']);
  if (series instanceof Response) return series;
  const input = await readJson(context.request, DeletePointBody);
  if (!input.ok) return input.response;
  const result = await (await store()).adminDeletePoint({
    seriesId: series.id,
    date: input.data.date,
    expected: input.data.expected,
    actor: gate.actor,
    now: new Date(),
  });
  // A deletion is a correction, not a price: it neither fires nor re-arms alerts (docs/delivery.md,
  // "Alerts"), but the scores resting on that day's price are made again.
  if (result.kind === 'written') void forecastsAfterPriceWrite(new Map([[series.id, [input.data.date]]]));
  return answer(result);
};

/**
 * POST /api/admin/prices/import[?dryRun=1], `Content-Type: text/csv`, the raw file as the body.
 * 415 for another type, 413 above 5 MiB or 200,000 rows, 400 with `errors: [{line, field,
 * message}]` when any row is bad (nothing written), else the counts (and for a real import one
 * audit entry, unless nothing changed).
 */
export const importPrices: EndpointHandler = async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  const type = (context.request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'text/csv') return jsonError(415, 'unsupported_media_type', 'Send the file as Content-Type: text/csv.');
  const body = await readTextUpTo(
    context.request,
    MAX_IMPORT_BYTES,
    `The file is too large: at most ${MAX_IMPORT_BYTES / 1024 / 1024} MiB. Split it into smaller files.`,
  );
  if (!body.ok) return body.response;
  // Checked in slices with a turn of the event loop between them: readers keep being answered.
  const check = await checkImportInSlices(body.text, forecastToday(), () => nextTurn());
  if (!check.ok) {
    if (check.tooManyRows) return jsonError(413, 'too_large', `The file has too many rows: at most ${MAX_IMPORT_ROWS}. Split it into smaller files.`);
    const first = check.errors[0]!;
    return json(
      {
        error: { code: 'invalid_csv', message: `Line ${first.line}, ${first.field}: ${first.message}. Nothing was imported.`, field: first.field, line: first.line },
        errors: check.errors,
      },
      400,
    );
  }
  const dryRun = ['1', 'true'].includes(new URL(context.request.url).searchParams.get('dryRun') ?? '');
  const result = await (await store()).adminImportPoints({ rows: check.rows, actor: gate.actor, now: new Date(), dryRun });
  // The import has committed here (a dry run wrote nothing): what follows a price write runs now.
  if (!dryRun && result.changed > 0) {
    void afterPriceWrite({ series: Object.keys(result.bySeries) });
    void forecastsAfterPriceWrite(datesBySeries(check.rows.filter((row) => (result.bySeries[row.series]?.changed ?? 0) > 0).map((row) => ({ seriesId: row.series, date: row.date }))));
  }
  return json({
    dryRun,
    rows: result.rows,
    changed: result.changed,
    series: Object.keys(countBySeries(check.rows)).length,
    bySeries: result.bySeries,
    auditId: result.entry?.id ?? null,
  });
};
