/**
 * What the exports of a comparison contain (pure): the names of the lines shown, the CSV in
 * the price CSV format, the rows of the XLSX summary sheet and the file names. The server
 * turns these into files (src/server/api/seriesExport.ts).
 */
import { basisFields, csvIntro } from '../basis.ts';
import { toSeriesCsv } from '../csv.ts';
import { roundTo } from '../numbers.ts';
import { seriesBasis } from '../seriesCatalog.ts';
import { lineDecimals, type Comparison, type ComparedLine } from './comparison.ts';

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

/** What a line's values are in: the unit, or the index and the unit it was computed from. */
export const valuesIn = (line: ComparedLine, comparison: Pick<Comparison, 'view'>): string =>
  comparison.view === 'indexed' ? `index (${line.unit} at the first point = 100)` : line.unit;

/**
 * A line's basis as header fields: the series' basis, then what the values are in and how they
 * were computed when they are not the series' own prices.
 */
export function lineBasisFields(line: ComparedLine, comparison: Comparison, site: string | URL): [string, string][] {
  const fields = basisFields(seriesBasis(line.id), line.label, site).map(([key, value]): [string, string] =>
    key === 'unit' ? [key, valuesIn(line, comparison)] : key === 'decimals' ? [key, String(lineDecimals(line, comparison))] : [key, value],
  );
  const done = [changesValues(line) ? line.conversion.formula : '', comparison.ma > 1 ? `${comparison.ma}-point moving average` : ''].filter(Boolean);
  return done.length > 0 ? [...fields, ['computed', done.join(' then ')]] : fields;
}

/** The comparison as the price CSV (docs/csv-format.md): each line's basis row, then its points, series after series, dates ascending. */
export const comparisonCsv = (comparison: Comparison, site: string | URL): string =>
  toSeriesCsv(
    comparison.lines.map((line) => ({ series: shownSeriesName(line, comparison), points: line.points, decimals: lineDecimals(line, comparison), basis: lineBasisFields(line, comparison, site) })),
    csvIntro(site),
  );

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
    const decimals = lineDecimals(line, comparison);
    const round = (value: number | undefined): number | null => (value === undefined ? null : roundTo(value, decimals));
    return [
      line.label,
      shownSeriesName(line, comparison),
      valuesIn(line, comparison),
      line.conversion.formula,
      s?.first.date ?? null,
      s?.last.date ?? null,
      round(s?.last.value),
      round(s?.change),
      s?.changePct ?? null,
      round(s?.min.value),
      s?.min.date ?? null,
      round(s?.max.value),
      s?.max.date ?? null,
      s?.average ?? null,
      s?.count ?? 0,
    ];
  });
}

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\ and unique in the book. */
export function sheetNames(labels: readonly string[]): string[] {
  const used = new Set<string>(['data', 'series', 'summary']);
  return labels.map((label, i) => {
    const base = label.replace(/[[\]:*?/\\]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 27) || `Series ${i + 1}`;
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base.slice(0, 27)} (${n})`;
    used.add(name.toLowerCase());
    return name;
  });
}
