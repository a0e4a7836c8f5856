/**
 * The pointer layer over a server-drawn chart (src/components/Chart.astro): the chart arrives
 * as static HTML in `children`; this island only finds the date under the pointer and shows
 * the lines' values — no charting library in the browser, no re-render of the chart, one state
 * update per animation frame at most. Where the plot is, it reads from the page (`.chart-plot`):
 * the plot stretches to its box, so a fraction of its width is a fraction of the time axis.
 */
import { useMemo, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { allDates, decodeLines, formatChartValue, nearestDate, positionOf } from '../lib/chartGeometry.ts';
import { toDisplayDate } from '../lib/dates.ts';

export interface ChartOverlayProps {
  /** The chart's lines, as encodeLines writes them (compact: Astro escapes every quote of a prop). */
  readonly data: string;
  readonly unit: string;
  readonly children?: ReactNode;
}

interface Hover {
  readonly date: string;
  /** Guide line and tooltip positions, in CSS pixels inside the box. */
  readonly x: number;
  readonly top: number;
  readonly plotHeight: number;
  readonly boxWidth: number;
}

export default function ChartOverlay({ data, unit, children }: ChartOverlayProps) {
  const lines = useMemo(() => decodeLines(data), [data]);
  const dates = useMemo(() => allDates(lines), [lines]);
  const values = useMemo(() => lines.map((line) => new Map(line.data.map((d) => [d.x, d.y]))), [lines]);
  const [hover, setHover] = useState<Hover | null>(null);
  const frame = useRef(0);

  function track(event: PointerEvent<HTMLDivElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    const plot = event.currentTarget.querySelector('.chart-plot')?.getBoundingClientRect();
    const { clientX, clientY } = event;
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => {
      if (!plot || plot.width <= 0) return setHover(null);
      const left = plot.left - box.left;
      const top = plot.top - box.top;
      const inside = clientX >= plot.left - 8 && clientX <= plot.right + 8 && clientY >= plot.top && clientY <= plot.bottom;
      const date = inside ? nearestDate(dates, (clientX - plot.left) / plot.width) : null;
      setHover((previous) => {
        if (!date) return null;
        if (previous?.date === date && previous.boxWidth === box.width) return previous;
        return { date, x: left + positionOf(dates, date) * plot.width, top, plotHeight: plot.height, boxWidth: box.width };
      });
    });
  }

  return (
    <div
      className="price-chart chart-overlay"
      data-testid="price-chart"
      data-unit={unit}
      onPointerMove={track}
      onPointerDown={track}
      onPointerLeave={() => {
        cancelAnimationFrame(frame.current);
        setHover(null);
      }}
    >
      {children}
      {hover && (
        <>
          <div className="chart-guide" aria-hidden="true" style={{ left: hover.x, top: hover.top, height: hover.plotHeight }} />
          <div
            className="chart-tooltip chart-tooltip-float"
            role="status"
            // Beside the guide, on the side with more room.
            style={hover.x > hover.boxWidth / 2 ? { right: hover.boxWidth - hover.x + 10, top: hover.top + 8 } : { left: hover.x + 10, top: hover.top + 8 }}
          >
            <strong>{toDisplayDate(hover.date)}</strong>
            {lines.map((line, i) => {
              const value = values[i]!.get(hover.date);
              return value === undefined ? null : (
                <span key={line.id} className="chart-tooltip-line">
                  {line.id}: {formatChartValue(value)} {unit}
                </span>
              );
            })}
          </div>
        </>
      )}
    </div>
  );
}
