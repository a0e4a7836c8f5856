/**
 * The comparison's charts (pure data and formatters, no React): which lines share an axis,
 * their colours, and the @nivo/line props of the SVG and PNG exports. The page draws the same
 * panels (src/pages/compare.astro), so the picture downloaded is the chart shown.
 *
 * Lines share an axis when their values are in one unit. A series the chosen unit cannot take
 * (VA in RMB, the exchange rate) keeps its own unit, so it gets a panel of its own below the
 * main one (small multiples over the same dates) instead of a second axis: on a phone a second
 * axis costs a 320 px plot a fifth of its width, and two or three units would need as many
 * axes. docs/decisions.md ("Compare: one axis per unit") says more.
 */
import type { LineSvgProps } from '@nivo/line';
import { rangeBand, type ChartBand } from '../chartBands.ts';
import { encodeLines, decodeLines, formatChartValue } from '../chartGeometry.ts';
import { PALETTE } from '../chartPalette.ts';
import type { IsoDate } from '../dates.ts';
import { thin } from '../series.ts';
import { unitKey, type Comparison } from './comparison.ts';
import { compareUnitLabels } from './units.ts';

export interface ChartDatum {
  readonly x: IsoDate;
  readonly y: number;
}
export interface ChartSeries {
  id: string;
  data: ChartDatum[];
}

/** Points per line on the chart: enough for any screen, small enough for the page. Figures and exports use every point. */
export const CHART_POINTS = 200;

/** One axis of the comparison: its unit, its lines (named by their series) and their colours. */
export interface ChartPanel {
  readonly unit: string;
  readonly lines: ChartSeries[];
  readonly colors: string[];
  /** The low–high band of each range-quoted line shown as prices (src/lib/chartBands.ts), in its line's colour. */
  readonly bands: ChartBand[];
  /** Whether these lines are shown as quoted because the chosen unit cannot take them. */
  readonly asQuoted: boolean;
}

/** A line's colour: its place in the comparison, the same in the panels, the legend and the table. */
export const lineColor = (index: number): string => PALETTE[index % PALETTE.length]!;

/**
 * The panels: the lines in the chosen unit first (or, as quoted, the first line's unit), then
 * one panel per other unit, in the order of the lines. Indexed lines all share one axis.
 */
export function chartPanels(comparison: Comparison, max = CHART_POINTS): ChartPanel[] {
  const panels = new Map<string, { unit: string; lines: ChartSeries[]; colors: string[]; bands: ChartBand[]; asQuoted: boolean }>();
  const main = comparison.view === 'indexed' ? 'index' : comparison.unit === 'native' ? null : unitKey(compareUnitLabels[comparison.unit]);
  if (main !== null) panels.set(main, { unit: comparison.view === 'indexed' ? 'Index (first point = 100)' : compareUnitLabels[comparison.unit], lines: [], colors: [], bands: [], asQuoted: false });
  comparison.lines.forEach((line, i) => {
    const key = comparison.view === 'indexed' ? 'index' : unitKey(line.unit);
    let panel = panels.get(key);
    if (!panel) panels.set(key, (panel = { unit: line.unit, lines: [], colors: [], bands: [], asQuoted: line.notConverted !== null }));
    const shown = thin(line.points, max);
    panel.lines.push({ id: line.label, data: shown.map((p) => ({ x: p.date, y: p.value })) });
    panel.colors.push(lineColor(i));
    const band = rangeBand(`${line.label}: low–high`, lineColor(i), shown);
    if (band) panel.bands.push(band);
  });
  return [...panels.values()].filter((panel) => panel.lines.length > 0);
}

/** Lines as compact text for an island's props (see encodeLines); kept under these names for the compare page. */
export const encodeChartSeries = encodeLines;
export const decodeChartSeries = (text: string): ChartSeries[] => decodeLines(text);

export const formatAxisValue = formatChartValue;

export type CompareChartProps = Omit<LineSvgProps<ChartSeries>, 'tooltip' | 'sliceTooltip' | 'width' | 'height'>;

/** Height of the legend below the plot: one line per series. */
export const legendHeight = (count: number): number => count * 20 + 8;

/** The nivo props of one panel at a width, for the exported picture (the caller adds the plot height). */
export function compareChartProps(panel: ChartPanel, width: number): CompareChartProps & { legendHeight: number } {
  const legend = legendHeight(panel.lines.length);
  return {
    data: panel.lines,
    legendHeight: legend,
    margin: { top: 16, right: 24, bottom: 44 + legend, left: 72 },
    xScale: { type: 'time', format: '%Y-%m-%d', precision: 'day', useUTC: true },
    xFormat: 'time:%Y-%m-%d',
    yScale: { type: 'linear', min: 'auto', max: 'auto', nice: true },
    colors: panel.colors,
    lineWidth: 2.5,
    enablePoints: false,
    enableGridX: false,
    animate: false,
    role: 'img',
    theme: { text: { fontSize: 13 } },
    axisBottom: { format: '%b %y', tickValues: 7, tickSize: 4 },
    axisLeft: { tickSize: 4, tickValues: 5, legend: panel.unit, legendOffset: -62, legendPosition: 'middle', format: (v) => formatAxisValue(Number(v)) },
    legends: [
      {
        anchor: 'bottom-left',
        direction: 'column',
        translateX: -60,
        translateY: 44 + legend - 4,
        itemWidth: Math.max(160, width - 100),
        itemHeight: 20,
        symbolSize: 10,
        // In the order of the series (nivo lists them last first by default).
        data: panel.lines.map((s, i) => ({ id: s.id, label: s.id, color: panel.colors[i]! })),
      },
    ],
  };
}
