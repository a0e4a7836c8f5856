/**
 * Exports of a comparison, exactly as /compare shows it (same query as GET /api/series): the
 * price CSV, an XLSX workbook (exceljs: a summary sheet, then one sheet per series), and the
 * chart as SVG (the island's @nivo/line props rendered on the server) or PNG (that SVG
 * rasterised by sharp). No astro:* imports: the fast lane may call it. Access is the caller's.
 */
import { Line, type LineSvgProps } from '@nivo/line';
import ExcelJS from 'exceljs';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import sharp from 'sharp';
import { basisShort } from '../../lib/basis.ts';
import { chartPanels, compareChartProps, type ChartSeries } from '../../lib/compare/chart.ts';
import { lineDecimals, type Comparison } from '../../lib/compare/comparison.ts';
import { comparisonCsv, exportFileName, lineBasisFields, sheetNames, SUMMARY_HEADER, summaryRows, type ExportFormat } from '../../lib/compare/exports.ts';
import { compareUnitLabels } from '../../lib/compare/units.ts';
import { BYTE_ORDER_MARK, CSV_MEDIA_TYPE } from '../../lib/csv.ts';
import { toDisplayDate } from '../../lib/dates.ts';
import { CONVERTED_DECIMALS, roundTo } from '../../lib/numbers.ts';
import { isRange, writtenValue } from '../../lib/quotes.ts';
import { FX_SERIES_ID, seriesBasis } from '../../lib/seriesCatalog.ts';
import { PRIVATE_CACHE } from '../http/json.ts';
import { siteOrigin } from '../http/site.ts';
import type { PriceStore } from '../store/prices.ts';
import { parseSeriesQuery, readComparison } from './series.ts';

export const MEDIA_TYPES: Readonly<Record<ExportFormat, string>> = {
  csv: CSV_MEDIA_TYPE,
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  svg: 'image/svg+xml',
  png: 'image/png',
};

/** The exported picture: 1200 px wide (PNG at twice that for print), the main plot 480 px high, a series in a unit of its own 240 px. */
const WIDTH = 1200;
const PLOT_HEIGHT = 480;
const OWN_AXIS_PLOT_HEIGHT = 240;
const HEAD = 76;
const FOOT = 36;
/** One line of the footer per series: its basis. */
const BASIS_LINE = 16;

const xml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** "₹/kg (Vinyl acetate · China as quoted)", or "as quoted". */
function unitsLine(comparison: Comparison): string {
  if (comparison.unit === 'native') return 'as quoted';
  const kept = comparison.lines.filter((l) => l.notConverted).map((l) => l.label);
  return `${compareUnitLabels[comparison.unit]}${kept.length > 0 ? ` (${kept.join(', ')} as quoted)` : ''}`;
}

const subtitle = (c: Comparison): string => `${toDisplayDate(c.range.from)} to ${toDisplayDate(c.range.to)} · ${c.valueLabel}`;

/**
 * The chart as a standalone SVG document: title, the panels as the page draws them (the lines
 * in the chosen unit, then each unit a series keeps, one under the other), the source line.
 */
export function comparisonSvg(comparison: Comparison): string {
  let top = HEAD;
  const charts = chartPanels(comparison).map((panel, i) => {
    const { legendHeight, ...lineProps } = compareChartProps(panel, WIDTH);
    const chartHeight = (i === 0 ? PLOT_HEIGHT : OWN_AXIS_PLOT_HEIGHT) + legendHeight;
    const markup = renderToStaticMarkup(createElement(Line as ComponentType<LineSvgProps<ChartSeries>>, { ...lineProps, width: WIDTH, height: chartHeight, ariaLabel: panel.unit }));
    // nivo wraps its <svg> in a <div> (the tooltip's anchor): a picture keeps only the <svg>.
    const chart = `<g transform="translate(0 ${top})">${markup.slice(markup.indexOf('<svg'), markup.lastIndexOf('</svg>') + '</svg>'.length)}</g>`;
    top += chartHeight;
    return chart;
  });
  const bases = comparison.lines.map(
    (line, i) => `<text x="24" y="${top + 18 + BASIS_LINE * i}" font-size="12" fill="#4a5568">${xml(`${line.label}: ${basisShort(seriesBasis(line.id))}`)}</text>`,
  );
  const height = top + FOOT + BASIS_LINE * comparison.lines.length;
  const title = `PolyIndex comparison of ${comparison.lines.length === 1 ? comparison.lines[0]!.label : `${comparison.lines.length} series`}`;
  const fx = comparison.lines.some((l) => l.conversion.fx !== 'none') ? ` Converted with ${FX_SERIES_ID} (the ₹/US$ reference rate of each date).` : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">`,
    `<title>${xml(`${title}: ${comparison.lines.map((l) => l.label).join(', ')}`)}</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="24" y="34" font-size="20" font-weight="700" fill="#0b2545">${xml(title.length > 96 ? `${title.slice(0, 95)}…` : title)}</text>`,
    `<text x="24" y="58" font-size="14" fill="#4a5568">${xml(subtitle(comparison))}</text>`,
    ...charts,
    ...bases,
    `<text x="24" y="${height - 14}" font-size="12" fill="#4a5568">${xml(`Source: PolyIndex. Units: ${unitsLine(comparison)}.${fx}`)}</text>`,
    '</svg>',
  ].join('\n');
}

/** The PNG of the SVG, at twice its size (sharp renders SVG with librsvg). */
export const comparisonPng = (svg: string): Promise<Buffer> => sharp(Buffer.from(svg), { density: 144 }).png().toBuffer();

const utcDate = (iso: string): Date => new Date(`${iso}T00:00:00Z`);

/** The headings of a line's basis fields (src/lib/compare/exports.ts, lineBasisFields) in a workbook. */
const FIELD_HEADINGS: Readonly<Record<string, string>> = {
  label: 'Series',
  basis: 'Basis',
  price: 'Price',
  taxes: 'Taxes',
  unit: 'Values in',
  published: 'Published',
  source: 'Source',
  methodology: 'Methodology',
  decimals: 'Decimals',
  computed: 'Computed',
};
const heading = (key: string): string => FIELD_HEADINGS[key] ?? key;

/** Excel's date format for every date cell (the cell holds a real date, not text). */
const DATE_FORMAT = 'yyyy-mm-dd';
/** A number format with exactly `decimals` places and thousands separators: "#,##0.00". */
const numberFormat = (decimals: number): string => (decimals > 0 ? `#,##0.${'0'.repeat(decimals)}` : '#,##0');
/** Percentages: the cell holds the fraction (0.0437), Excel shows "4.37%". */
const PERCENT_FORMAT = '0.00%';

const bold = (row: ExcelJS.Row): ExcelJS.Row => {
  row.font = { bold: true };
  return row;
};

/** Frozen header row (and first column), and a filter over the header's columns. */
function tableSheet(sheet: ExcelJS.Worksheet, headerRow: number, columns: number): void {
  sheet.views = [{ state: 'frozen', xSplit: 1, ySplit: headerRow }];
  sheet.autoFilter = { from: { row: headerRow, column: 1 }, to: { row: headerRow, column: columns } };
}

/** A line's values: the unit, or "Index" (the header of its columns). */
const unitOf = (line: Comparison['lines'][number], comparison: Comparison): string => (comparison.view === 'indexed' ? 'Index' : line.unit);

/**
 * The workbook, for analysis first:
 * - "Data": one row per date, one column per series (the value; a range's mid), real dates,
 *   each column in its series' number format, the header frozen and filtered;
 * - "Series": each series' id, name, unit, basis, source and methodology link, whether it is
 *   quoted as a range;
 * - "Summary": the query and one row of figures per series (Change % as a percentage);
 * - a sheet per series: its basis in header rows, then its dates and values (low, high and
 *   mid for a range).
 */
export async function comparisonXlsx(comparison: Comparison, site: string | URL): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'PolyIndex';
  const lines = comparison.lines;
  const decimalsOf = lines.map((line) => lineDecimals(line, comparison));

  // Data: Date × series.
  const data = book.addWorksheet('Data');
  data.columns = [{ key: 'date', width: 12, style: { numFmt: DATE_FORMAT } }, ...lines.map((_, i) => ({ key: `s${i}`, width: 22, style: { numFmt: numberFormat(decimalsOf[i]!) } }))];
  bold(data.addRow(['Date', ...lines.map((line) => `${line.label} (${unitOf(line, comparison)}${line.points.some(isRange) ? ', mid' : ''})`)]));
  data.getRow(1).alignment = { wrapText: true, vertical: 'top' };
  const byDate = new Map<string, (number | null)[]>();
  lines.forEach((line, i) => {
    for (const p of line.points) {
      let row = byDate.get(p.date);
      if (!row) byDate.set(p.date, (row = lines.map(() => null)));
      row[i] = writtenValue(p, decimalsOf[i]!);
    }
  });
  for (const date of [...byDate.keys()].sort()) data.addRow([utcDate(date), ...byDate.get(date)!]);
  tableSheet(data, 1, lines.length + 1);

  // Series: what each column is.
  const seriesSheet = book.addWorksheet('Series');
  const fieldsOf = lines.map((line) => lineBasisFields(line, comparison, site));
  const keys = [...new Set(fieldsOf.flatMap((fields) => fields.map(([key]) => key)))];
  bold(seriesSheet.addRow(['Id', ...keys.map(heading), 'Quoted as']));
  lines.forEach((line, i) => {
    const row = seriesSheet.addRow([line.id, ...keys.map((key) => fieldsOf[i]!.find(([k]) => k === key)?.[1] ?? ''), seriesBasis(line.id).quotes === 'range' ? 'range (low–high)' : 'single value']);
    const link = keys.indexOf('methodology');
    if (link >= 0) {
      const cell = row.getCell(link + 2);
      cell.value = { text: String(cell.value), hyperlink: String(cell.value) };
      cell.font = { color: { argb: 'FF0B5CAD' }, underline: true };
    }
  });
  seriesSheet.columns.forEach((column, i) => {
    column.width = i <= 1 ? 34 : 22;
  });
  tableSheet(seriesSheet, 1, keys.length + 2);

  // Summary: the query, then the figures.
  const summary = book.addWorksheet('Summary');
  summary.addRow(['PolyIndex comparison']).font = { bold: true, size: 14 };
  summary.addRow(['From', utcDate(comparison.range.from), 'To', utcDate(comparison.range.to)]);
  for (const column of [2, 4]) summary.getRow(2).getCell(column).numFmt = DATE_FORMAT;
  summary.addRow(['Values', comparison.valueLabel]);
  summary.addRow(['Exchange rate', lines.some((l) => l.conversion.fx !== 'none') ? `${FX_SERIES_ID}: ₹/US$ reference rate of each date, else the latest before it` : 'not used']);
  summary.addRow([]);
  const header = bold(summary.addRow([...SUMMARY_HEADER]));
  summaryRows(comparison).forEach((figures, i) => {
    const row = summary.addRow(figures.map((value, column) => (SUMMARY_HEADER[column] === 'Change %' && typeof value === 'number' ? roundTo(value / 100, 6) : typeof value === 'string' && SUMMARY_DATE_COLUMNS.has(SUMMARY_HEADER[column]!) ? utcDate(value) : value)));
    SUMMARY_HEADER.forEach((name, column) => {
      const cell = row.getCell(column + 1);
      if (name === 'Change %') cell.numFmt = PERCENT_FORMAT;
      else if (SUMMARY_DATE_COLUMNS.has(name)) cell.numFmt = DATE_FORMAT;
      else if (SUMMARY_PRICE_COLUMNS.has(name)) cell.numFmt = numberFormat(decimalsOf[i]!);
      else if (name === 'Average') cell.numFmt = numberFormat(CONVERTED_DECIMALS);
    });
  });
  summary.columns.forEach((column, i) => {
    column.width = i === 0 ? 40 : i === 3 ? 44 : 14;
  });
  summary.views = [{ state: 'frozen', ySplit: header.number }];

  // A sheet per series.
  const names = sheetNames(lines.map((l) => l.label));
  lines.forEach((line, i) => {
    const sheet = book.addWorksheet(names[i]!);
    const ranged = line.points.some(isRange);
    const unit = unitOf(line, comparison);
    const format = numberFormat(decimalsOf[i]!);
    sheet.columns = [{ key: 'date', width: 14 }, ...(ranged ? ['low', 'high', 'mid'] : ['value']).map((key) => ({ key, width: ranged ? 16 : 28 }))];
    // Header rows: the series' basis, a blank row, then the table's own header.
    for (const [key, value] of fieldsOf[i]!) sheet.addRow([heading(key), value]).getCell(1).font = { bold: true };
    sheet.addRow([]);
    const head = bold(sheet.addRow(ranged ? ['Date', `Low (${unit})`, `High (${unit})`, `Mid (${unit})`] : ['Date', `${line.label} (${unit})`]));
    const round = (value: number) => roundTo(value, decimalsOf[i]!);
    for (const p of line.points) {
      const row = sheet.addRow(ranged ? [utcDate(p.date), isRange(p) ? round(p.low) : null, isRange(p) ? round(p.high) : null, writtenValue(p, decimalsOf[i]!)] : [utcDate(p.date), round(p.value)]);
      row.getCell(1).numFmt = DATE_FORMAT;
      for (let column = 2; column <= (ranged ? 4 : 2); column++) row.getCell(column).numFmt = format;
    }
    sheet.views = [{ state: 'frozen', ySplit: head.number }];
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The summary's columns that hold a price of the line (its number format), and those that hold a date. */
const SUMMARY_PRICE_COLUMNS = new Set<string>(['Last', 'Change', 'Min', 'Max']);
const SUMMARY_DATE_COLUMNS = new Set<string>(['First date', 'Last date', 'Min date', 'Max date']);

/** Validates the query and answers the file (or the 400). */
export async function seriesExportResponse(store: PriceStore, url: URL, format: ExportFormat): Promise<Response> {
  const query = parseSeriesQuery(url);
  if (!query.ok) return query.response;
  const comparison = await readComparison(store, query.data);
  let body: string | Buffer;
  switch (format) {
    case 'csv':
      body = BYTE_ORDER_MARK + comparisonCsv(comparison, siteOrigin);
      break;
    case 'xlsx':
      body = await comparisonXlsx(comparison, siteOrigin);
      break;
    case 'svg':
      body = comparisonSvg(comparison);
      break;
    case 'png':
      body = await comparisonPng(comparisonSvg(comparison));
      break;
  }
  return new Response(typeof body === 'string' ? body : new Uint8Array(body), {
    status: 200,
    headers: {
      'Content-Type': format === 'svg' ? `${MEDIA_TYPES.svg}; charset=utf-8` : MEDIA_TYPES[format],
      'Content-Disposition': `attachment; filename="${exportFileName(comparison, format)}"`,
      'Cache-Control': PRIVATE_CACHE,
      Vary: 'Cookie',
    },
  });
}
