/**
 * The admin CSV import, pure: the export's format read back (src/lib/csv.ts), then every row
 * checked against the series catalog and the unit's sane range (src/lib/priceRanges.ts).
 * Any bad row rejects the whole file; the errors name the line and the field.
 */
import { parsePriceCsvSteps, type CsvError, type CsvRow } from '../csv.ts';
import { valueProblem } from '../priceRanges.ts';
import { findSeries } from '../seriesCatalog.ts';

/** The most an import may hold: bytes of the body and data rows. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 200_000;
/** Errors reported back (a file can have thousands; the first ones are enough to fix it). */
export const MAX_REPORTED_ERRORS = 50;

export type ImportCheck =
  | { readonly ok: true; readonly rows: readonly CsvRow[] }
  | { readonly ok: false; readonly tooManyRows: boolean; readonly errors: readonly CsvError[] };

export function checkImport(text: string): ImportCheck {
  const steps = checkImportSteps(text, Number.POSITIVE_INFINITY, MAX_IMPORT_ROWS);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/** Lines (or rows) checked between two pauses of `checkImportInSlices`: a few milliseconds of work. */
export const IMPORT_SLICE = 500;

/**
 * `checkImport` in slices: awaits `pause()` every IMPORT_SLICE lines, so a server checking a
 * 100,000-row file keeps answering other requests meanwhile (the caller passes a macrotask
 * yield; this module stays pure).
 */
export async function checkImportInSlices(text: string, pause: () => Promise<void>, maxRows = MAX_IMPORT_ROWS): Promise<ImportCheck> {
  const steps = checkImportSteps(text, IMPORT_SLICE, maxRows);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await pause();
  }
}

function* checkImportSteps(text: string, slice: number, maxRows: number): Generator<void, ImportCheck> {
  const parsed = yield* parsePriceCsvSteps(text, slice, maxRows);
  if (parsed.tooManyRows) return { ok: false, tooManyRows: true, errors: [] };
  const errors: CsvError[] = [...parsed.errors];
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
      const problem = valueProblem(series.unit, row.value);
      if (problem) errors.push({ line, field: 'value', message: `${problem} (got ${row.value})` });
      const key = `${row.series} ${row.date}`;
      if (seen.has(key)) errors.push({ line, field: 'date', message: `${row.series} on ${row.date} appears twice in the file` });
      seen.add(key);
    }
  }
  if (errors.length > 0) return { ok: false, tooManyRows: false, errors: errors.slice(0, MAX_REPORTED_ERRORS) };
  return { ok: true, rows: parsed.rows };
}

/** Rows per series, for the preview and the audit entry. */
export function countBySeries(rows: readonly CsvRow[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.series] = (counts[row.series] ?? 0) + 1;
  return counts;
}
