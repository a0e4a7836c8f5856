/**
 * A price chart: the lines drawn by @nivo/line (red first, 2.5 px: src/lib/chartPalette.ts) in an SVG that
 * stretches to its box, with its axes, unit and legend as HTML around it (src/lib/chartGeometry.ts
 * says why), so every label is 13 CSS px whatever the box. Two uses:
 *   - `StaticPriceChart`: the server draws it (src/components/Chart.astro), and only the light
 *     pointer layer (ChartOverlay) hydrates over it, so a chart page loads no charting library;
 *   - the default export, the same drawing made in the browser, loaded on demand when a screen
 *     changes its data (the feedstock periods).
 */
import { Line, type LineCustomSvgLayer, type LineSeries } from '@nivo/line';
import type { CSSProperties } from 'react';
import { bandPath, type ChartBand } from '../lib/chartBands.ts';
import { chartAxes, plotHeightOf, PLOT_DRAWING_PX, type AxisTick } from '../lib/chartGeometry.ts';
import { LINE_COLOR, PALETTE } from '../lib/chartPalette.ts';
import { roundTo } from '../lib/numbers.ts';
import type { ChartLine } from '../lib/series.ts';

export interface PriceChartProps {
  readonly lines: readonly ChartLine[];
  readonly unit: string;
  /** Accessible name of the chart. */
  readonly title: string;
  /** The chart's height in CSS px, axis labels included. */
  readonly height?: number;
  /** A colour per line (default: the palette, red first). */
  readonly colors?: readonly string[];
  /** Name the lines below the plot (default: when there are several). */
  readonly legend?: boolean;
  /** Shaded ranges under the lines (forecast fans); the value axis then spans them too. */
  readonly bands?: readonly ChartBand[];
}

export { LINE_COLOR };

type Series = { id: string; data: { x: string; y: number }[] } & LineSeries;

// A CSS position (not a figure a reader sees): a percentage of the plot, to a hundredth.
const percent = (fraction: number): string => `${roundTo(fraction * 100, 2)}%`;

function TimeLabels({ ticks, className }: { readonly ticks: readonly AxisTick[]; readonly className: string }) {
  return (
    <div className={`chart-x ${className}`} aria-hidden="true">
      {ticks.map((tick) => (
        // Centred on its tick, but kept inside the axis at its ends (a label is at most about 3.4em wide).
        <span key={tick.value} style={{ left: `clamp(1.7em, ${percent(tick.position)}, calc(100% - 1.7em))` }}>
          {tick.label}
        </span>
      ))}
    </div>
  );
}

/** The bands, drawn before the lines: the time scale takes UTC-midnight dates. */
const bandLayer =
  (bands: readonly ChartBand[]): LineCustomSvgLayer<Series> =>
  ({ xScale, yScale }) => (
    <g className="chart-bands">
      {bands.map((band) => (
        <path key={band.id} d={bandPath(band, (x) => xScale(new Date(`${x}T00:00:00Z`) as never), (y) => yScale(y as never))} fill={band.color} fillOpacity={0.22} stroke={band.color} strokeOpacity={0.5} strokeWidth={1} vectorEffect="non-scaling-stroke" />
      ))}
    </g>
  );

/** A band's lows and highs as points, so the axes span them as they span the lines. */
const bandExtent = (band: ChartBand) => ({ data: band.points.flatMap((p) => [{ x: p.x, y: p.low }, { x: p.x, y: p.high }]) });

/** The chart: unit, value labels, the plot, time labels (a set per width tier) and the legend. */
export function StaticPriceChart({ lines, unit, title, height = 320, colors = PALETTE, legend = lines.length > 1, bands = [] }: PriceChartProps) {
  const data: Series[] = lines.map((line) => ({ id: line.id, data: line.data.map((d) => ({ x: d.x, y: d.y })) }));
  if (data.every((s) => s.data.length === 0)) return <p className="muted chart-empty">No prices in this period.</p>;
  const axes = chartAxes([...lines, ...bands.map(bandExtent)]);
  const plotHeight = plotHeightOf(height);
  const frameStyle = { '--y-label-chars': axes.value.labelChars, '--plot-height': `${plotHeight}px` } as CSSProperties;
  return (
    <div className="chart-frame" style={frameStyle}>
      <span className="chart-unit" aria-hidden="true">
        {unit}
      </span>
      <div className="chart-y" aria-hidden="true">
        {axes.value.ticks.map((tick) => (
          <span key={tick.value} style={{ bottom: percent(tick.position) }}>
            {tick.label}
          </span>
        ))}
      </div>
      <div className="chart-plot">
        <svg viewBox={`0 0 ${PLOT_DRAWING_PX} ${plotHeight}`} preserveAspectRatio="none" role="img" aria-label={`${title} (${unit})`}>
          <Line<Series>
            width={PLOT_DRAWING_PX}
            height={plotHeight}
            data={data}
            role="presentation"
            // Nothing around the <svg>: it is drawn inside the plot's own <svg>, where a <div> would not show.
            renderWrapper={false}
            margin={{ top: 0, right: 0, bottom: 0, left: 0 }}
            xScale={{ type: 'time', format: '%Y-%m-%d', precision: 'day', useUTC: true }}
            xFormat="time:%Y-%m-%d"
            yScale={{ type: 'linear', min: axes.value.min, max: axes.value.max }}
            gridYValues={axes.value.ticks.map((t) => t.value)}
            enableGridX={false}
            axisTop={null}
            axisRight={null}
            axisBottom={null}
            axisLeft={null}
            colors={[...colors]}
            lineWidth={2.5}
            enablePoints={false}
            isInteractive={false}
            useMesh={false}
            animate={false}
            legends={[]}
            {...(bands.length > 0 ? { layers: ['grid', 'markers', 'axes', 'areas', bandLayer(bands), 'crosshair', 'lines', 'points', 'slices', 'mesh', 'legends'] as const } : {})}
          />
        </svg>
      </div>
      {axes.time.map((ticks, tier) => (
        <TimeLabels key={tier} ticks={ticks} className={`chart-x-${tier}`} />
      ))}
      {legend && (
        <ul className="chart-legend">
          {lines.map((line, i) => (
            <li key={line.id}>
              <span className="chart-swatch" style={{ background: colors[i % colors.length] }} aria-hidden="true" />
              {line.id}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The same chart drawn in the browser (the feedstock explorer's other periods). */
export default function PriceChart(props: PriceChartProps) {
  return <StaticPriceChart {...props} />;
}
