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
import { roundTo } from '../../lib/numbers.ts';
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

/**
 * The workbook: "Summary" (the query, the basis of each series, then one row of figures per
 * series), then a sheet per series (its basis in header rows, then date and value).
 */
export async function comparisonXlsx(comparison: Comparison, site: string | URL): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'PolyIndex';
  const summary = book.addWorksheet('Summary');
  summary.addRow(['PolyIndex comparison']).font = { bold: true, size: 14 };
  summary.addRow(['From', comparison.range.from, 'To', comparison.range.to]);
  summary.addRow(['Values', comparison.valueLabel]);
  summary.addRow(['Exchange rate', comparison.lines.some((l) => l.conversion.fx !== 'none') ? `${FX_SERIES_ID}: ₹/US$ reference rate of each date, else the latest before it` : 'not used']);
  summary.addRow([]);
  summary.addRow(['Basis of each series']).font = { bold: true };
  const fieldsOf = comparison.lines.map((line) => lineBasisFields(line, comparison, site));
  const keys = [...new Set(fieldsOf.flatMap((fields) => fields.map(([key]) => key)))];
  summary.addRow(keys.map(heading)).font = { bold: true };
  for (const fields of fieldsOf) summary.addRow(keys.map((key) => fields.find(([k]) => k === key)?.[1] ?? ''));
  summary.addRow([]);
  summary.addRow([...SUMMARY_HEADER]).font = { bold: true };
  for (const row of summaryRows(comparison)) summary.addRow(row);
  summary.columns.forEach((column, i) => {
    column.width = i === 0 ? 44 : i === 3 ? 52 : 16;
  });

  const names = sheetNames(comparison.lines.map((l) => l.label));
  comparison.lines.forEach((line, i) => {
    const sheet = book.addWorksheet(names[i]!);
    const unit = comparison.view === 'indexed' ? 'Index' : line.unit;
    sheet.columns = [
      { key: 'date', width: 14 },
      { key: 'value', width: 28 },
    ];
    // Header rows: the series' basis, a blank row, then the table's own header.
    for (const [key, value] of fieldsOf[i]!) sheet.addRow([heading(key), value]).getCell(1).font = { bold: true };
    sheet.addRow([]);
    sheet.addRow(['Date', `${line.label} (${unit})`]).font = { bold: true };
    const decimals = lineDecimals(line, comparison);
    for (const p of line.points) {
      const row = sheet.addRow([utcDate(p.date), roundTo(p.value, decimals)]);
      row.getCell(1).numFmt = 'yyyy-mm-dd';
    }
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

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
