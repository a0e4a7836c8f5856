/**
 * A price chart drawn by @nivo/line. Red line, 2.5 px (spec §9); tooltip dates in the ordinal
 * display form. Two uses:
 *   - `StaticPriceChart`: the server draws the SVG (src/components/Chart.astro), and only the
 *     light pointer layer (ChartOverlay) hydrates over it, so a chart page loads no charting
 *     library;
 *   - the default export: drawn in the browser at the box's width, loaded on demand when a
 *     screen changes its data (the feedstock periods).
 */
import { Line, type LineCustomSvgLayer, type LineSeries, type PointTooltipProps } from '@nivo/line';
import { useEffect, useRef, useState } from 'react';
import { bandPath, valueSpan, type ChartBand } from '../lib/chartBands.ts';
import { chartLayout, formatChartValue as formatValue, WIDE_CHART_PX } from '../lib/chartGeometry.ts';
import { LINE_COLOR, PALETTE } from '../lib/chartPalette.ts';
import { toDisplayDate } from '../lib/dates.ts';
import type { ChartLine } from '../lib/series.ts';

export interface PriceChartProps {
  readonly lines: readonly ChartLine[];
  readonly unit: string;
  /** Accessible name of the chart. */
  readonly title: string;
  readonly height?: number;
  /** Shaded ranges under the lines (forecast fans); the value axis then spans them too. */
  readonly bands?: readonly ChartBand[];
}

export { LINE_COLOR };

type Series = { id: string; data: { x: string; y: number }[] } & LineSeries;

/** The time scale hands back x as a UTC-midnight Date; the data gave it as ISO text. */
const isoOf = (x: unknown): string => (x instanceof Date ? x.toISOString().slice(0, 10) : String(x).slice(0, 10));


function Tooltip({ point, unit }: PointTooltipProps<Series> & { unit: string }) {
  return (
    <div className="chart-tooltip" role="status">
      <strong>{toDisplayDate(isoOf(point.data.x))}</strong>
      <br />
      {point.seriesId}: {formatValue(Number(point.data.y))} {unit}
    </div>
  );
}

export default function PriceChart({ lines, unit, title, height = 320 }: PriceChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(WIDE_CHART_PX);

  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(260, Math.floor(entry.contentRect.width)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={box} className="price-chart" data-testid="price-chart" data-unit={unit}>
      <ChartSvg lines={lines} unit={unit} title={title} height={height} width={width} interactive />
    </div>
  );
}

/** The chart at a fixed width, without the library's pointer handling: for server rendering. */
export function StaticPriceChart(props: PriceChartProps & { readonly width: number }) {
  return <ChartSvg {...props} interactive={false} />;
}

/** The bands, drawn before the lines: the time scale takes UTC-midnight dates. */
const bandLayer =
  (bands: readonly ChartBand[]): LineCustomSvgLayer<Series> =>
  ({ xScale, yScale }) => (
    <g className="chart-bands">
      {bands.map((band) => (
        <path key={band.id} d={bandPath(band, (x) => xScale(new Date(`${x}T00:00:00Z`) as never), (y) => yScale(y as never))} fill={band.color} fillOpacity={0.22} stroke={band.color} strokeOpacity={0.5} strokeWidth={1} />
      ))}
    </g>
  );

function ChartSvg({ lines, unit, title, height = 320, width, interactive, bands = [] }: PriceChartProps & { readonly width: number; readonly interactive: boolean }) {
  const data: Series[] = lines.map((line) => ({ id: line.id, data: line.data.map((d) => ({ x: d.x, y: d.y })) }));
  if (data.every((s) => s.data.length === 0)) return <p className="muted chart-empty">No prices in this period.</p>;
  const { narrow, legendHeight, outerHeight, margin } = chartLayout(width, height, lines.length);
  const span = bands.length > 0 ? valueSpan(lines, bands) : null;
  return (
    <Line<Series>
      width={width}
      height={outerHeight}
      data={data}
      role="img"
      ariaLabel={`${title} (${unit})`}
      margin={margin}
      xScale={{ type: 'time', format: '%Y-%m-%d', precision: 'day', useUTC: true }}
      xFormat="time:%Y-%m-%d"
      yScale={{ type: 'linear', min: span?.min ?? 'auto', max: span?.max ?? 'auto', nice: true }}
      {...(bands.length > 0 ? { layers: ['grid', 'markers', 'axes', 'areas', bandLayer(bands), 'crosshair', 'lines', 'points', 'slices', 'mesh', 'legends'] as const } : {})}
      colors={[...PALETTE]}
      lineWidth={2.5}
      enablePoints={false}
      enableGridX={false}
      isInteractive={interactive}
      useMesh={interactive}
      animate={false}
      axisBottom={{ format: narrow ? '%b %y' : '%d %b %y', tickValues: narrow ? 4 : 7, tickSize: 4 }}
      axisLeft={{ tickSize: 4, legend: unit, legendOffset: -56, legendPosition: 'middle', format: (v) => formatValue(Number(v)) }}
      tooltip={(props) => <Tooltip {...props} unit={unit} />}
      legends={
        lines.length > 1
          ? [
              narrow
                ? { anchor: 'bottom-left', direction: 'column', translateX: -40, translateY: 40 + legendHeight - 4, itemWidth: 160, itemHeight: 18, symbolSize: 10 }
                : { anchor: 'bottom-left', direction: 'row', translateY: 64, itemWidth: 130, itemHeight: 18, symbolSize: 10 },
            ]
          : []
      }
    />
  );
}
