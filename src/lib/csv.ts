/**
 * The price CSV format (docs/csv-format.md): the export writes it, the admin import reads it.
 *
 *   series,date,value
 *   feedstock.naphtha.japan,2025-01-02,612.5
 *
 * UTF-8, `\n` line ends, a header row, one row per point, ISO dates, `.` decimals, no
 * thousands separators, no quoting (series ids never contain commas or quotes).
 */
import { parseIsoDate, type IsoDate } from './dates.ts';
import type { PricePoint } from './priceTypes.ts';

export const CSV_HEADER = 'series,date,value';
export const CSV_MEDIA_TYPE = 'text/csv; charset=utf-8';

const SERIES_ID_RE = /^[A-Za-z0-9._-]+$/;

export function toPriceCsv(seriesId: string, points: readonly PricePoint[]): string {
  return toSeriesCsv([{ series: seriesId, points }]);
}

/** Several series in one file, one after the other (a file may mix series). */
export function toSeriesCsv(parts: readonly { readonly series: string; readonly points: readonly PricePoint[] }[]): string {
  const lines = [CSV_HEADER];
  for (const { series, points } of parts) {
    if (!SERIES_ID_RE.test(series)) throw new RangeError(`not a series id: ${series}`);
    for (const p of points) lines.push(`${series},${p.date},${p.value}`);
  }
  return `${lines.join('\n')}\n`;
}

export interface CsvRow {
  readonly series: string;
  readonly date: IsoDate;
  readonly value: number;
}

export interface CsvError {
  /** 1-based line number in the file. */
  readonly line: number;
  /** What is wrong: the header, the number of columns, or one field of the row. */
  readonly field: 'header' | 'columns' | 'series' | 'date' | 'value';
  readonly message: string;
}

/** Reads the format back; every bad line is reported, and no row is returned when any is bad. */
export function parsePriceCsv(text: string): { rows: CsvRow[]; errors: CsvError[] } {
  const steps = parsePriceCsvSteps(text, Number.POSITIVE_INFINITY);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return { rows: step.value.rows, errors: step.value.errors };
  }
}

export interface CsvReading {
  readonly rows: CsvRow[];
  /** The 1-based line number of each row. */
  readonly lineOf: number[];
  readonly errors: CsvError[];
  /** True when the file has more than `maxRows` rows: reading stopped there. */
  readonly tooManyRows: boolean;
}

/**
 * The same reading in slices: yields after every `sliceLines` lines, so a caller with a large
 * file can let other work run between slices (src/lib/admin/priceImport.ts). Lines are found
 * one at a time (no split of the whole text into an array of lines first).
 */
export function* parsePriceCsvSteps(text: string, sliceLines: number, maxRows = Number.POSITIVE_INFINITY): Generator<void, CsvReading> {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const errors: CsvError[] = [];
  const rows: CsvRow[] = [];
  const lineOf: number[] = [];
  let start = 0;
  let lineNo = 0;
  let dataLines = 0;
  while (start <= body.length) {
    const newline = body.indexOf('\n', start);
    const end = newline < 0 ? body.length : newline;
    const line = body.slice(start, end > start && body.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    lineNo++;
    if (lineNo === 1) {
      if (line.trim() !== CSV_HEADER) {
        return { rows: [], lineOf: [], errors: [{ line: 1, field: 'header', message: `the first line must be "${CSV_HEADER}"` }], tooManyRows: false };
      }
      continue;
    }
    if (lineNo % sliceLines === 0) yield;
    if (line.trim() === '') continue;
    if (++dataLines > maxRows) return { rows: [], lineOf: [], errors: [], tooManyRows: true };
    const cells = line.split(',');
    if (cells.length !== 3) {
      errors.push({ line: lineNo, field: 'columns', message: 'expected 3 fields: series,date,value' });
      continue;
    }
    const [series, dateText, valueText] = cells.map((c) => c.trim()) as [string, string, string];
    const date = parseIsoDate(dateText);
    const value = /^-?\d+(\.\d+)?$/.test(valueText) ? Number(valueText) : Number.NaN;
    if (!SERIES_ID_RE.test(series)) errors.push({ line: lineNo, field: 'series', message: `bad series id "${series}"` });
    else if (date === null) errors.push({ line: lineNo, field: 'date', message: `bad date "${dateText}" (use YYYY-MM-DD)` });
    else if (!Number.isFinite(value)) errors.push({ line: lineNo, field: 'value', message: `bad value "${valueText}"` });
    else {
      rows.push({ series, date, value });
      lineOf.push(lineNo);
    }
  }
  return errors.length > 0 ? { rows: [], lineOf: [], errors, tooManyRows: false } : { rows, lineOf, errors, tooManyRows: false };
}
