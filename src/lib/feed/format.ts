/**
 * The data feed's answers (`/api/v1/**`), shaped once for JSON and CSV (pure). CSV is what
 * Google Sheets' IMPORTDATA and Excel's Power Query expect: UTF-8 with a byte-order mark (so ₹
 * reads right when the file is opened by double-click), one header row, `\r\n` line ends
 * (RFC 4180), ISO dates (YYYY-MM-DD), `.` decimals without thousands separators, and a field
 * quoted only when it holds a comma, a quote or a line end.
 */
import { basisJson, basisShort } from '../basis.ts';
import { BYTE_ORDER_MARK } from '../csv.ts';
import { plainNumber, priceValue, roundTo, CONVERTED_DECIMALS } from '../numbers.ts';
import type { PricePoint } from '../priceTypes.ts';
import { allSeries, seriesBasis, type SeriesDef } from '../seriesCatalog.ts';

export type FeedFormat = 'json' | 'csv';

export const FEED_CSV_MEDIA_TYPE = 'text/csv; charset=utf-8';
export const FEED_JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

/** How many series one `latest` request may name. */
export const MAX_LATEST_IDS = 50;

/** The format a request asks for: `.csv` at the end of the path, or `Accept: text/csv`; JSON otherwise. */
export function feedFormatOf(pathname: string, accept: string | null): FeedFormat {
  if (pathname.endsWith('.csv')) return 'csv';
  return accept && /(^|,)\s*text\/csv\b/i.test(accept) ? 'csv' : 'json';
}

/** The path without its `.csv` (the route's own name). */
export const withoutCsvSuffix = (text: string): string => text.replace(/\.csv$/, '');

type Cell = string | number | boolean | null;

const cellText = (cell: Cell): string => {
  const text = cell === null ? '' : typeof cell === 'number' ? numberText(cell) : String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** A number as a spreadsheet reads it everywhere: `.` decimals, no exponent, no separators. */
const numberText = plainNumber;

/** A CSV table: the header row, then the rows. */
export function csvTable(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return BYTE_ORDER_MARK + [header, ...rows].map((row) => row.map(cellText).join(',')).join('\r\n') + '\r\n';
}

/** One row of the catalog. */
export function catalogEntry(series: SeriesDef) {
  const basis = seriesBasis(series);
  return { id: series.id, name: series.label, family: series.family, unit: series.unit, currency: series.currency, frequency: series.frequency, basis: basisJson(basis) };
}

export function catalogBody(format: FeedFormat): string {
  if (format === 'json') return JSON.stringify({ series: allSeries.map(catalogEntry) });
  return csvTable(
    ['id', 'name', 'family', 'unit', 'currency', 'frequency', 'basis'],
    allSeries.map((s) => [s.id, s.label, s.family, s.unit, s.currency, s.frequency, basisShort(seriesBasis(s))]),
  );
}

/** One series over a range, in the unit asked (`unit` is the values' unit; `converted` says how when not native). */
export interface SeriesAnswer {
  readonly series: SeriesDef;
  readonly from: string;
  readonly to: string;
  readonly unit: string;
  /** null: the series' own unit. */
  readonly conversion: string | null;
  /** Why the unit asked could not be given (the values are then as quoted). */
  readonly notConverted: string | null;
  readonly decimals: number;
  readonly points: readonly PricePoint[];
}

export function seriesBody(answer: SeriesAnswer, format: FeedFormat): string {
  const round = (value: number) => roundTo(value, answer.decimals);
  if (format === 'csv') return csvTable(['series', 'date', 'value', 'unit'], answer.points.map((p) => [answer.series.id, p.date, round(p.value), answer.unit]));
  return JSON.stringify({
    id: answer.series.id,
    name: answer.series.label,
    unit: answer.unit,
    conversion: answer.conversion,
    notConverted: answer.notConverted,
    basis: basisJson(seriesBasis(answer.series)),
    from: answer.from,
    to: answer.to,
    points: answer.points.map((p) => ({ date: p.date, value: round(p.value) })),
  });
}

/** The newest price of a series and how it moved from the one before. */
export interface LatestEntry {
  readonly id: string;
  readonly name: string;
  readonly unit: string;
  readonly date: string | null;
  readonly value: number | null;
  readonly previousDate: string | null;
  readonly previousValue: number | null;
  readonly change: number | null;
  readonly changePct: number | null;
}

/** The entry of a series from its newest points (ascending; at most the last two are used). */
export function latestEntry(series: SeriesDef, points: readonly PricePoint[]): LatestEntry {
  const basis = seriesBasis(series);
  const last = points.at(-1);
  const previous = points.length > 1 ? points.at(-2)! : undefined;
  const value = last ? priceValue(last.value, basis) : null;
  const previousValue = previous ? priceValue(previous.value, basis) : null;
  const change = value !== null && previousValue !== null ? priceValue(value - previousValue, basis) : null;
  const changePct = change !== null && previousValue ? roundTo((change / previousValue) * 100, CONVERTED_DECIMALS) : null;
  return { id: series.id, name: series.label, unit: series.unit, date: last?.date ?? null, value, previousDate: previous?.date ?? null, previousValue, change, changePct };
}

export function latestBody(entries: readonly LatestEntry[], format: FeedFormat): string {
  if (format === 'json') return JSON.stringify({ series: entries });
  return csvTable(
    ['id', 'name', 'unit', 'date', 'value', 'previous_date', 'previous_value', 'change', 'change_pct'],
    entries.map((e) => [e.id, e.name, e.unit, e.date, e.value, e.previousDate, e.previousValue, e.change, e.changePct]),
  );
}
