import { describe, expect, it } from 'vitest';
import { bandPath, valueSpan, type ChartBand } from '../../src/lib/chartBands.ts';

const band: ChartBand = { id: 'Desk', color: '#0b2545', points: [{ x: '2026-11-02', low: 100, high: 100 }, { x: '2026-11-09', low: 95, high: 110 }] };
const line = { id: 'PP', data: [{ x: '2026-10-26', y: 98 }, { x: '2026-11-02', y: 100 }] };

describe('chart bands', () => {
  it('widen the value axis to hold the bands, with a little room', () => {
    expect(valueSpan([line], [])).toEqual({ min: 98 - 0.06, max: 100 + 0.06 });
    const span = valueSpan([line], [band])!;
    expect(span.min).toBeCloseTo(95 - 0.45, 9);
    expect(span.max).toBeCloseTo(110 + 0.45, 9);
    expect(valueSpan([], [])).toBeNull();
    // A flat chart still gets a span.
    expect(valueSpan([{ id: 'x', data: [{ x: '2026-11-02', y: 50 }] }], [])).toEqual({ min: 49.5, max: 50.5 });
  });

  it('trace the highs forward and the lows back', () => {
    const x = (date: string) => (date === '2026-11-02' ? 0 : 100);
    const y = (value: number) => 200 - value;
    expect(bandPath(band, x, y)).toBe('M0.0,100.0L100.0,90.0L100.0,105.0L0.0,100.0Z');
    expect(bandPath({ ...band, points: [] }, x, y)).toBe('');
  });
});
