/**
 * The price CSV format (docs/csv-format.md): the export writes it, the admin import reads it.
 *
 *   # PolyIndex prices. …
 *   # basis: series=feedstock.naphtha.japan; label=Naphtha · Japan; basis=CFR Japan; …; unit=US$/t; …
 *   series,date,value
 *   feedstock.naphtha.japan,2025-01-02,612.5
 *
 * UTF-8 (an export starts with a byte-order mark, so spreadsheet programs read ₹ right), `\n`
 * line ends, header rows starting with `#` (the basis of each series: `# basis:` then
 * `key=value` pairs separated by `; `), the column header, one row per point, ISO dates, `.`
 * decimals, no thousands separators, no quoting (series ids never contain commas or quotes;
 * header rows hold no comma either).
 */
import { parseIsoDate, type IsoDate } from './dates.ts';
import { roundTo } from './numbers.ts';
import type { PricePoint } from './priceTypes.ts';
import { writtenValue } from './quotes.ts';

export const CSV_HEADER = 'series,date,value';
/** The column header of a file with ranges (docs/csv-format.md): a row's low and high after its value. */
export const CSV_RANGE_HEADER = 'series,date,value,low,high';
export const CSV_MEDIA_TYPE = 'text/csv; charset=utf-8';
export const BYTE_ORDER_MARK = '\uFEFF';
/** The start of a header row that carries a series' basis. */
export const BASIS_ROW = '# basis:';

const SERIES_ID_RE = /^[A-Za-z0-9._-]+$/;
/** A plain decimal number: `.` as separator, no grouping, no exponent. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** What a header row's value may not hold (the separators of the format and of the row); a key not `=` either. */
const VALUE_FORBIDDEN = /[,;\n\r"]/;
const KEY_FORBIDDEN = /[,;=\s"]/;

/** One series of an export: its rows, the decimals its values are written in, and its basis row's fields. */
export interface CsvSeries {
  readonly series: string;
  readonly points: readonly PricePoint[];
  /** Values are rounded to these decimals (src/lib/numbers.ts): no float noise in a file. */
  readonly decimals: number;
  /** The basis row: `series` first, then these `[key, value]` pairs in order. */
  readonly basis?: readonly (readonly [string, string])[] | undefined;
}

/** A header row with a series' basis: `# basis: series=…; key=value; …`. */
export function basisRow(series: string, fields: readonly (readonly [string, string])[]): string {
  for (const [key, value] of fields) {
    if (KEY_FORBIDDEN.test(key) || VALUE_FORBIDDEN.test(value)) throw new RangeError(`a header row cannot carry ${JSON.stringify(`${key}=${value}`)}`);
  }
  return `${BASIS_ROW} ${[['series', series] as const, ...fields].map(([k, v]) => `${k}=${v}`).join('; ')}`;
}

/** One series' every point, with its basis row. */
export const toPriceCsv = (part: CsvSeries, intro?: string): string => toSeriesCsv([part], intro);

/** Several series in one file, one after the other (a file may mix series); their basis rows first. */
export function toSeriesCsv(parts: readonly CsvSeries[], intro?: string): string {
  const lines: string[] = [];
  if (intro !== undefined) {
    if (/[,\n\r"]/.test(intro)) throw new RangeError('a header row cannot hold a comma, a quote or a line break');
    lines.push(`# ${intro}`);
  }
  for (const part of parts) {
    if (!SERIES_ID_RE.test(part.series)) throw new RangeError(`not a series id: ${part.series}`);
    if (part.basis) lines.push(basisRow(part.series, part.basis));
  }
  // Ranges (a range-quoted series: src/lib/quotes.ts): low and high after the value, which is
  // their mid; a single value leaves them empty. A file without any range keeps three columns.
  const ranged = parts.some((part) => part.points.some((p) => p.low !== undefined && p.high !== undefined));
  lines.push(ranged ? CSV_RANGE_HEADER : CSV_HEADER);
  for (const { series, points, decimals } of parts) {
    for (const p of points) {
      const row = `${series},${p.date},${writtenValue(p, decimals)}`;
      lines.push(!ranged ? row : p.low !== undefined && p.high !== undefined ? `${row},${roundTo(p.low, decimals)},${roundTo(p.high, decimals)}` : `${row},,`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A header row as read back: its line, and its fields when it is a basis row. */
export interface CsvHeaderRow {
  readonly line: number;
  /** `key → value` of a `# basis:` row; null for any other `#` row (a comment). */
  readonly fields: Readonly<Record<string, string>> | null;
}

export interface CsvRow {
  readonly series: string;
  readonly date: IsoDate;
  /** The value; in a range row it may be left empty (NaN here: the mid is derived on import). */
  readonly value: number;
  /** A range's ends (the low–high columns); absent when the row has none. */
  readonly low?: number | undefined;
  readonly high?: number | undefined;
}

export interface CsvError {
  /** 1-based line number in the file. */
  readonly line: number;
  /** What is wrong: the header (or a header row), the number of columns, or one field of the row. */
  readonly field: 'header' | 'columns' | 'series' | 'date' | 'value' | 'low' | 'high';
  readonly message: string;
}

/** Reads the format back; every bad line is reported, and no row is returned when any is bad. */
export function parsePriceCsv(text: string): { headerRows: CsvHeaderRow[]; rows: CsvRow[]; errors: CsvError[] } {
  const steps = parsePriceCsvSteps(text, Number.POSITIVE_INFINITY);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return { headerRows: step.value.headerRows, rows: step.value.rows, errors: step.value.errors };
  }
}

/**
 * A `#` row read back. A spreadsheet program that saved the file may have added empty cells
 * (trailing commas): they are dropped. A basis row must name its series and hold `key=value`
 * pairs; anything else starting with `#` is a comment.
 */
function readHeaderRow(line: number, text: string): CsvHeaderRow | CsvError {
  const row = text.replace(/,+\s*$/, '').trim();
  if (!row.startsWith(BASIS_ROW)) return { line, fields: null };
  const fields: Record<string, string> = {};
  for (const pair of row.slice(BASIS_ROW.length).split(';')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    if (eq <= 0) return { line, field: 'header', message: `a basis row holds key=value pairs separated by "; " (got "${pair.trim().slice(0, 60)}")` };
    fields[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  if (!fields['series']) return { line, field: 'header', message: 'a basis row must name its series (series=…)' };
  return { line, fields };
}

export interface CsvReading {
  /** The `#` rows before the column header. */
  readonly headerRows: CsvHeaderRow[];
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
  const body = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  const errors: CsvError[] = [];
  const headerRows: CsvHeaderRow[] = [];
  const rows: CsvRow[] = [];
  const lineOf: number[] = [];
  let start = 0;
  let lineNo = 0;
  let dataLines = 0;
  let headerSeen = false;
  let columns = 3;
  while (start <= body.length) {
    const newline = body.indexOf('\n', start);
    const end = newline < 0 ? body.length : newline;
    const line = body.slice(start, end > start && body.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    lineNo++;
    if (!headerSeen) {
      // Header rows (`#`) and blank lines, then the column header; nothing else may come first.
      if (line.trim() === '') continue;
      if (line.trimStart().startsWith('#')) {
        const row = readHeaderRow(lineNo, line);
        if ('field' in row) errors.push(row);
        else headerRows.push(row);
        continue;
      }
      const header = line.replace(/,+\s*$/, '').trim();
      if (header !== CSV_HEADER && header !== CSV_RANGE_HEADER) {
        const message = headerRows.length > 0 ? `after the # rows, the next line must be "${CSV_HEADER}" (or "${CSV_RANGE_HEADER}")` : `the first line must be "${CSV_HEADER}" or "${CSV_RANGE_HEADER}" (or # rows, then it)`;
        return { headerRows: [], rows: [], lineOf: [], errors: [...errors, { line: lineNo, field: 'header', message }], tooManyRows: false };
      }
      columns = header === CSV_RANGE_HEADER ? 5 : 3;
      headerSeen = true;
      continue;
    }
    if (lineNo % sliceLines === 0) yield;
    if (line.trim() === '') continue;
    if (++dataLines > maxRows) return { headerRows: [], rows: [], lineOf: [], errors: [], tooManyRows: true };
    const cells = line.split(',');
    if (cells.length !== columns) {
      errors.push({ line: lineNo, field: 'columns', message: columns === 3 ? 'expected 3 fields: series,date,value' : 'expected 5 fields: series,date,value,low,high (low and high empty for a single value)' });
      continue;
    }
    const [series, dateText, valueText, lowText = '', highText = ''] = cells.map((c) => c.trim()) as [string, string, string, string?, string?];
    const date = parseIsoDate(dateText);
    const numberOf = (text: string) => (PLAIN_NUMBER.test(text) ? Number(text) : Number.NaN);
    const ranged = lowText !== '' || highText !== '';
    // In a range row the value may be left empty: the mid is derived from low and high.
    const value = ranged && valueText === '' ? Number.NaN : numberOf(valueText);
    const low = lowText === '' ? undefined : numberOf(lowText);
    const high = highText === '' ? undefined : numberOf(highText);
    if (!SERIES_ID_RE.test(series)) errors.push({ line: lineNo, field: 'series', message: `bad series id "${series}"` });
    else if (date === null) errors.push({ line: lineNo, field: 'date', message: `bad date "${dateText}" (use YYYY-MM-DD)` });
    else if (!(ranged && valueText === '') && !Number.isFinite(value)) errors.push({ line: lineNo, field: 'value', message: `bad value "${valueText}"` });
    else if (low !== undefined && !Number.isFinite(low)) errors.push({ line: lineNo, field: 'low', message: `bad low "${lowText}"` });
    else if (high !== undefined && !Number.isFinite(high)) errors.push({ line: lineNo, field: 'high', message: `bad high "${highText}"` });
    else if (ranged && (low === undefined || high === undefined)) {
      errors.push(low === undefined ? { line: lineNo, field: 'low', message: 'a range needs its low as well as its high' } : { line: lineNo, field: 'high', message: 'a range needs its high as well as its low' });
    } else {
      rows.push(ranged ? { series, date, value, low, high } : { series, date, value });
      lineOf.push(lineNo);
    }
  }
  if (!headerSeen && errors.length === 0) errors.push({ line: Math.max(1, lineNo), field: 'header', message: `the file has no "${CSV_HEADER}" line` });
  return errors.length > 0 ? { headerRows: [], rows: [], lineOf: [], errors, tooManyRows: false } : { headerRows, rows, lineOf, errors, tooManyRows: false };
}
