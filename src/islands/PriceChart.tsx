/**
 * A price chart: @nivo/line rendered to SVG on the server and hydrated `client:visible` for
 * the tooltip. Red line, 2.5 px (spec §9); tooltip dates in the ordinal display form.
 */
import { Line, type LineSeries, type PointTooltipProps } from '@nivo/line';
import { useEffect, useRef, useState } from 'react';
import { PALETTE } from '../lib/chartPalette.ts';
import { toDisplayDate } from '../lib/dates.ts';
import type { ChartLine } from '../lib/series.ts';

export interface PriceChartProps {
  readonly lines: readonly ChartLine[];
  readonly unit: string;
  /** Accessible name of the chart. */
  readonly title: string;
  readonly height?: number;
}

const SSR_WIDTH = 760;

type Series = { id: string; data: { x: string; y: number }[] } & LineSeries;

/** The time scale hands back x as a UTC-midnight Date; the data gave it as ISO text. */
const isoOf = (x: unknown): string => (x instanceof Date ? x.toISOString().slice(0, 10) : String(x).slice(0, 10));

const formatValue = (value: number) => value.toLocaleString('en-IN', { maximumFractionDigits: 2 });

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
  const [width, setWidth] = useState(SSR_WIDTH);

  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(260, Math.floor(entry.contentRect.width)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const data: Series[] = lines.map((line) => ({ id: line.id, data: line.data.map((d) => ({ x: d.x, y: d.y })) }));
  const empty = data.every((s) => s.data.length === 0);
  const narrow = width < 520;
  // Several lines get a legend: one row when wide, one line per series when narrow.
  const legendHeight = lines.length > 1 ? (narrow ? lines.length * 18 + 8 : 32) : 0;

  return (
    <div ref={box} className="price-chart" data-testid="price-chart" data-unit={unit}>
      {empty ? (
        <p className="muted chart-empty">No prices in this period.</p>
      ) : (
        <Line<Series>
          width={width}
          height={height + (narrow ? legendHeight : 0)}
          data={data}
          role="img"
          ariaLabel={`${title} (${unit})`}
          margin={{ top: 16, right: 20, bottom: legendHeight + 40, left: 64 }}
          xScale={{ type: 'time', format: '%Y-%m-%d', precision: 'day', useUTC: true }}
          xFormat="time:%Y-%m-%d"
          yScale={{ type: 'linear', min: 'auto', max: 'auto', nice: true }}
          colors={[...PALETTE]}
          lineWidth={2.5}
          enablePoints={false}
          enableGridX={false}
          useMesh
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
      )}
    </div>
  );
}
