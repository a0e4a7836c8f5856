/**
 * The admin CSV import, pure: the export's format read back (src/lib/csv.ts), then every row
 * checked against the series catalog and the unit's sane range (src/lib/priceRanges.ts).
 * Any bad row rejects the whole file; the errors name the line and the field.
 */
import { parsePriceCsv, type CsvError, type CsvRow } from '../csv.ts';
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
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const dataLines = lines.slice(1).filter((line) => line.trim() !== '').length;
  if (dataLines > MAX_IMPORT_ROWS) return { ok: false, tooManyRows: true, errors: [] };
  const parsed = parsePriceCsv(text);
  const errors: CsvError[] = [...parsed.errors];
  if (errors.length === 0) {
    // parsePriceCsv keeps rows in file order, skipping blank lines: recover each row's line number.
    let lineIndex = 0;
    const seen = new Set<string>();
    for (const row of parsed.rows) {
      do lineIndex++;
      while ((lines[lineIndex] ?? '').trim() === '');
      const line = lineIndex + 1;
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
