/**
 * The /compare chart: @nivo/line rendered to SVG on the server and hydrated `client:visible`
 * for its tooltip (every series' value on the date under the pointer) and to follow the
 * card's width. Its props come from src/lib/compare/chart.ts, as the SVG/PNG exports' do.
 * A separate island from PriceChart: the page ships only this one.
 */
import { Line, type SliceTooltipProps } from '@nivo/line';
import { useEffect, useMemo, useRef, useState } from 'react';
import { compareChartProps, decodeChartSeries, formatAxisValue, type ChartSeries } from '../lib/compare/chart.ts';
import { toDisplayDate } from '../lib/dates.ts';

export interface CompareChartProps {
  /** The lines, as encodeChartSeries writes them. */
  readonly data: string;
  /** What the values are in (the y axis). */
  readonly valueLabel: string;
  /** Accessible name of the chart. */
  readonly title: string;
}

const SSR_WIDTH = 760;
const PLOT_HEIGHT = 340;

const isoOf = (x: unknown): string => (x instanceof Date ? x.toISOString().slice(0, 10) : String(x).slice(0, 10));

function SliceTooltip({ slice }: SliceTooltipProps<ChartSeries>) {
  const date = slice.points[0] ? toDisplayDate(isoOf(slice.points[0].data.x)) : '';
  return (
    <div className="chart-tooltip" role="status">
      <strong>{date}</strong>
      {slice.points.map((point) => (
        <div key={point.id}>
          <svg width="10" height="10" viewBox="0 0 10 10" aria-hidden="true">
            <rect width="10" height="10" fill={point.seriesColor} />
          </svg>{' '}
          {point.seriesId}: {formatAxisValue(Number(point.data.y))}
        </div>
      ))}
    </div>
  );
}

export default function CompareChart({ data, valueLabel, title }: CompareChartProps) {
  const series = useMemo(() => decodeChartSeries(data), [data]);
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(SSR_WIDTH);
  // The tooltip's hit areas (one per date) are only useful once hydrated: the server leaves
  // them out, which keeps the page a third of its size, and the first client render matches it.
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);

  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(260, Math.floor(entry.contentRect.width)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const empty = series.every((s) => s.data.length === 0);
  const { legendHeight, ...props } = compareChartProps(series, valueLabel, width);
  return (
    <div ref={box} className="price-chart compare-chart" data-testid="compare-chart">
      {empty ? (
        <p className="muted chart-empty">No prices in this range.</p>
      ) : (
        <Line<ChartSeries> {...props} width={width} height={PLOT_HEIGHT + legendHeight} ariaLabel={`${title} (${valueLabel})`} enableSlices={interactive ? 'x' : false} sliceTooltip={SliceTooltip} />
      )}
    </div>
  );
}
