/**
 * The admin CSV import, pure: the export's format read back (src/lib/csv.ts), then every row
 * checked against the series catalog, the unit's sane range and the decimals the series is
 * quoted in, a range (low and high columns) only where the series is range-quoted, low not
 * above high, the mid derived (src/lib/priceRanges.ts, readQuote), and every basis header row against the series' basis: a
 * file that says its prices are in another unit than the series is kept in is refused (an
 * export's header rows always agree; other `#` rows are comments). Any bad row rejects the
 * whole file; the errors name the line and the field.
 */
import { parsePriceCsvSteps, type CsvError, type CsvHeaderRow, type CsvRow } from '../csv.ts';
import type { Quote } from '../priceTypes.ts';
import { priceDateProblem, readQuote } from '../priceRanges.ts';
import { findSeries, seriesBasis } from '../seriesCatalog.ts';
import { readUnit } from '../units.ts';

/** The most an import may hold: bytes of the body and data rows. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 200_000;
/** Errors reported back (a file can have thousands; the first ones are enough to fix it). */
export const MAX_REPORTED_ERRORS = 50;

export type ImportCheck =
  | { readonly ok: true; readonly rows: readonly CsvRow[] }
  | { readonly ok: false; readonly tooManyRows: boolean; readonly errors: readonly CsvError[] };

/** `today`: India's calendar day (ISO) when the file is checked; no row may be dated later. */
export function checkImport(text: string, today: string): ImportCheck {
  const steps = checkImportSteps(text, today, Number.POSITIVE_INFINITY, MAX_IMPORT_ROWS);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/** Lines (or rows) checked between two pauses of `checkImportInSlices`: a few milliseconds of work. */
export const IMPORT_SLICE = 500;

/**
 * `checkImport` in slices: awaits `pause()` every IMPORT_SLICE lines, so a server checking a
 * 100,000-row file keeps answering other requests meanwhile (the caller passes a macrotask
 * yield; this module stays pure).
 */
export async function checkImportInSlices(text: string, today: string, pause: () => Promise<void>, maxRows = MAX_IMPORT_ROWS): Promise<ImportCheck> {
  const steps = checkImportSteps(text, today, IMPORT_SLICE, maxRows);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await pause();
  }
}

/**
 * A basis header row against the catalog: a series the catalog keeps must be in the unit the row
 * names (any spelling PolyIndex reads). A row for a series it does not keep (a converted line of
 * a comparison's export) is left to the data rows, which refuse such a series.
 */
function headerRowProblem(row: CsvHeaderRow): CsvError | null {
  if (!row.fields) return null;
  const series = findSeries(row.fields['series'] ?? '');
  if (!series) return null;
  const written = row.fields['unit'];
  if (written === undefined) return null;
  const unit = readUnit(written);
  if (unit === null) return { line: row.line, field: 'header', message: `"${written.slice(0, 20)}" is not a unit PolyIndex knows; ${series.id} is kept in ${series.unit}` };
  if (unit !== series.unit) return { line: row.line, field: 'header', message: `the file says ${series.id} is in ${unit}, but it is kept in ${series.unit}` };
  return null;
}

function* checkImportSteps(text: string, today: string, slice: number, maxRows: number): Generator<void, ImportCheck> {
  const parsed = yield* parsePriceCsvSteps(text, slice, maxRows);
  if (parsed.tooManyRows) return { ok: false, tooManyRows: true, errors: [] };
  const errors: CsvError[] = [...parsed.errors];
  for (const row of parsed.headerRows) {
    const problem = headerRowProblem(row);
    if (problem) errors.push(problem);
  }
  // Each row's price as it will be stored: a value, or a range with its mid (readQuote).
  const quotes: Quote[] = [];
  if (errors.length === 0) {
    const seen = new Set<string>();
    for (const [i, row] of parsed.rows.entries()) {
      if (i > 0 && i % slice === 0) yield;
      const line = parsed.lineOf[i]!;
      const series = findSeries(row.series);
      if (!series) {
        errors.push({ line, field: 'series', message: `unknown series "${row.series}"` });
        continue;
      }
      const reading = readQuote(seriesBasis(series), { value: Number.isNaN(row.value) ? null : row.value, low: row.low, high: row.high });
      if (reading.ok) quotes[i] = reading.quote;
      else errors.push({ line, field: reading.field, message: `${reading.message} (got ${reading.field === 'value' ? row.value : reading.field === 'low' ? row.low : row.high})` });
      const dateProblem = priceDateProblem(row.date, today);
      if (dateProblem) errors.push({ line, field: 'date', message: dateProblem });
      const key = `${row.series} ${row.date}`;
      if (seen.has(key)) errors.push({ line, field: 'date', message: `${row.series} on ${row.date} appears twice in the file` });
      seen.add(key);
    }
  }
  if (errors.length > 0) return { ok: false, tooManyRows: false, errors: errors.slice(0, MAX_REPORTED_ERRORS) };
  return { ok: true, rows: parsed.rows.map((row, i) => ({ series: row.series, date: row.date, ...quotes[i]! })) };
}

/** Rows per series, for the preview and the audit entry. */
export function countBySeries(rows: readonly CsvRow[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.series] = (counts[row.series] ?? 0) + 1;
  return counts;
}
