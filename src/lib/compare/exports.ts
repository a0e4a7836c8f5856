/**
 * What the exports of a comparison contain (pure): the names of the lines shown, the CSV in
 * the price CSV format, the rows of the XLSX summary sheet and the file names. The server
 * turns these into files (src/server/api/seriesExport.ts).
 */
import { toSeriesCsv } from '../csv.ts';
import type { Comparison, ComparedLine } from './comparison.ts';

export const exportFormats = ['csv', 'xlsx', 'svg', 'png'] as const;
export type ExportFormat = (typeof exportFormats)[number];
export const isExportFormat = (value: string): value is ExportFormat => (exportFormats as readonly string[]).includes(value);

const changesValues = (line: ComparedLine): boolean => {
  const c = line.conversion;
  return c.multiplier !== 1 || c.divisor !== 1 || c.fx !== 'none';
};

/**
 * The name of a line in the CSV's `series` column: the series id when the values are the
 * series' own prices, else the id with what was done to them (`.inr_kg`, `.usd_t`, `.indexed`,
 * `.ma7`), e.g. `feedstock.naphtha.japan.inr_kg.ma30`. Such names are no series id, so the
 * admin import refuses a converted file instead of overwriting prices with it.
 */
export function shownSeriesName(line: ComparedLine, comparison: Pick<Comparison, 'unit' | 'view' | 'ma'>): string {
  const parts = [line.id];
  if (changesValues(line)) parts.push(comparison.unit);
  if (comparison.view === 'indexed') parts.push('indexed');
  if (comparison.ma > 1) parts.push(`ma${comparison.ma}`);
  return parts.join('.');
}

/** The comparison as the price CSV (docs/csv-format.md), series after series, dates ascending. */
export const comparisonCsv = (comparison: Comparison): string =>
  toSeriesCsv(comparison.lines.map((line) => ({ series: shownSeriesName(line, comparison), points: line.points })));

/** `polyindex-compare-2021-11-24-to-2026-11-24-inr_kg.xlsx` */
export function exportFileName(comparison: Comparison, format: ExportFormat): string {
  const what = [comparison.unit, comparison.view === 'indexed' ? 'indexed' : '', comparison.ma > 1 ? `ma${comparison.ma}` : ''].filter(Boolean).join('-');
  return `polyindex-compare-${comparison.range.from}-to-${comparison.range.to}-${what}.${format}`;
}

export const SUMMARY_HEADER = [
  'Series', 'Id in the CSV', 'Values in', 'Conversion', 'First date', 'Last date', 'Last', 'Change', 'Change %', 'Min', 'Min date', 'Max', 'Max date', 'Average', 'Points',
] as const;

/** One row of the summary sheet per line: what it is, how it was converted, and its figures. */
export function summaryRows(comparison: Comparison): (string | number | null)[][] {
  return comparison.lines.map((line) => {
    const s = line.stats;
    return [
      line.label,
      shownSeriesName(line, comparison),
      comparison.view === 'indexed' ? `index (${line.unit} at the first point = 100)` : line.unit,
      line.conversion.formula,
      s?.first.date ?? null,
      s?.last.date ?? null,
      s?.last.value ?? null,
      s?.change ?? null,
      s?.changePct ?? null,
      s?.min.value ?? null,
      s?.min.date ?? null,
      s?.max.value ?? null,
      s?.max.date ?? null,
      s?.average ?? null,
      s?.count ?? 0,
    ];
  });
}

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\ and unique in the book. */
export function sheetNames(labels: readonly string[]): string[] {
  const used = new Set<string>(['summary']);
  return labels.map((label, i) => {
    const base = label.replace(/[[\]:*?/\\]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 27) || `Series ${i + 1}`;
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base.slice(0, 27)} (${n})`;
    used.add(name.toLowerCase());
    return name;
  });
}
