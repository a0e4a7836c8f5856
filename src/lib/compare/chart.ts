/**
 * The comparison chart's @nivo/line props (pure data and formatters, no React): the /compare
 * island renders them in the browser and the server renders the same props to the SVG and
 * PNG exports, so the picture downloaded is the chart shown.
 */
import type { LineSvgProps } from '@nivo/line';
import { PALETTE } from '../chartPalette.ts';
import type { IsoDate } from '../dates.ts';
import { formatNumber } from '../numbers.ts';
import { thin } from '../series.ts';
import { lineName, type Comparison } from './comparison.ts';

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

/** The chart's lines: each series by its name (with its unit when units differ), thinned for drawing. */
export const chartSeries = (comparison: Comparison, max = CHART_POINTS): ChartSeries[] =>
  comparison.lines.map((line) => ({ id: lineName(line, comparison), data: thin(line.points, max).map((p) => ({ x: p.date, y: p.value })) }));

const DAY_MS = 86_400_000;

/**
 * The lines as compact text for the island's props: `[[name, [day numbers…], [values…]], …]`
 * (days since 1970-01-01). Astro escapes every quote of a prop into the page, so dates as
 * numbers keep the page small; decodeChartSeries reads it back.
 */
export const encodeChartSeries = (series: readonly ChartSeries[]): string =>
  JSON.stringify(series.map((s) => [s.id, s.data.map((d) => Date.parse(`${d.x}T00:00:00Z`) / DAY_MS), s.data.map((d) => d.y)]));

export function decodeChartSeries(text: string): ChartSeries[] {
  const lines = JSON.parse(text) as [string, number[], number[]][];
  return lines.map(([id, days, values]) => ({ id, data: days.map((day, i) => ({ x: new Date(day * DAY_MS).toISOString().slice(0, 10), y: values[i]! })) }));
}

export const formatAxisValue = (value: number): string => formatNumber(value);

export type CompareChartProps = Omit<LineSvgProps<ChartSeries>, 'tooltip' | 'sliceTooltip' | 'width' | 'height'>;

/** Height of the legend below the plot: one line per series. */
export const legendHeight = (count: number): number => count * 20 + 8;

/** The nivo props of a comparison at a width (the caller adds the plot height). */
export function compareChartProps(series: ChartSeries[], valueLabel: string, width: number): CompareChartProps & { legendHeight: number } {
  const narrow = width < 520;
  const legend = legendHeight(series.length);
  return {
    data: series,
    legendHeight: legend,
    margin: { top: 16, right: 24, bottom: 44 + legend, left: 72 },
    xScale: { type: 'time', format: '%Y-%m-%d', precision: 'day', useUTC: true },
    xFormat: 'time:%Y-%m-%d',
    yScale: { type: 'linear', min: 'auto', max: 'auto', nice: true },
    colors: [...PALETTE],
    lineWidth: 2.5,
    enablePoints: false,
    enableGridX: false,
    animate: false,
    role: 'img',
    axisBottom: { format: narrow ? '%b %y' : '%d %b %y', tickValues: narrow ? 4 : 7, tickSize: 4 },
    axisLeft: { tickSize: 4, legend: valueLabel, legendOffset: -62, legendPosition: 'middle', format: (v) => formatAxisValue(Number(v)) },
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
        data: series.map((s, i) => ({ id: s.id, label: s.id, color: PALETTE[i % PALETTE.length]! })),
      },
    ],
  };
}
