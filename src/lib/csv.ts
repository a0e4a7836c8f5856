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
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const errors: CsvError[] = [];
  const rows: CsvRow[] = [];
  if ((lines[0] ?? '').trim() !== CSV_HEADER) {
    return { rows: [], errors: [{ line: 1, field: 'header', message: `the first line must be "${CSV_HEADER}"` }] };
  }
  lines.slice(1).forEach((line, i) => {
    const lineNo = i + 2;
    if (line.trim() === '') return;
    const cells = line.split(',');
    if (cells.length !== 3) return void errors.push({ line: lineNo, field: 'columns', message: 'expected 3 fields: series,date,value' });
    const [series, dateText, valueText] = cells.map((c) => c.trim()) as [string, string, string];
    const date = parseIsoDate(dateText);
    const value = /^-?\d+(\.\d+)?$/.test(valueText) ? Number(valueText) : Number.NaN;
    if (!SERIES_ID_RE.test(series)) errors.push({ line: lineNo, field: 'series', message: `bad series id "${series}"` });
    else if (date === null) errors.push({ line: lineNo, field: 'date', message: `bad date "${dateText}" (use YYYY-MM-DD)` });
    else if (!Number.isFinite(value)) errors.push({ line: lineNo, field: 'value', message: `bad value "${valueText}"` });
    else rows.push({ series, date, value });
  });
  return errors.length > 0 ? { rows: [], errors } : { rows, errors };
}
