/**
 * The pointer layer over a server-drawn chart (src/components/Chart.astro): the SVG arrives as
 * static HTML in `children`; this island only finds the date under the pointer and shows its
 * values — no charting library in the browser, no re-render of the chart, one state update per
 * animation frame at most.
 */
import { useMemo, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { allDates, chartLayout, formatChartValue, nearestDate, positionOf } from '../lib/chartGeometry.ts';
import { toDisplayDate } from '../lib/dates.ts';
import type { ChartLine } from '../lib/series.ts';

export interface ChartOverlayProps {
  readonly lines: readonly ChartLine[];
  readonly unit: string;
  /** The width and plot height the SVG was drawn at (it scales to its box). */
  readonly width: number;
  readonly height: number;
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

export default function ChartOverlay({ lines, unit, width, height, children }: ChartOverlayProps) {
  const dates = useMemo(() => allDates(lines), [lines]);
  const values = useMemo(() => lines.map((line) => new Map(line.data.map((d) => [d.x, d.y]))), [lines]);
  const { margin, outerHeight } = chartLayout(width, height, lines.length);
  const [hover, setHover] = useState<Hover | null>(null);
  const frame = useRef(0);

  function track(event: PointerEvent<HTMLDivElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    const { clientX, clientY } = event;
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => {
      const scale = box.width / width;
      const left = margin.left * scale;
      const plotWidth = (width - margin.left - margin.right) * scale;
      const top = margin.top * scale;
      const plotHeight = (outerHeight - margin.top - margin.bottom) * scale;
      const inside = clientX - box.left >= left - 8 && clientX - box.left <= left + plotWidth + 8 && clientY - box.top >= top && clientY - box.top <= top + plotHeight;
      const date = inside ? nearestDate(dates, (clientX - box.left - left) / plotWidth) : null;
      setHover((previous) => {
        if (!date) return null;
        if (previous?.date === date && previous.boxWidth === box.width) return previous;
        return { date, x: left + positionOf(dates, date) * plotWidth, top, plotHeight, boxWidth: box.width };
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
