import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { allDates, chartAxes, decodeLines, encodeLines, nearestDate, plotHeightOf, positionOf, TIME_TICK_TIERS, timeAxis, valueAxis } from '../../src/lib/chartGeometry.ts';

const labels = (ticks: readonly { label: string }[]) => ticks.map((t) => t.label);

describe('chart axes', () => {
  it('rounds the value axis to whole ticks that cover every price, Indian digit grouping', () => {
    const axis = valueAxis([562.4, 611.9, 688.1]);
    expect([axis.min, axis.max]).toEqual([560, 700]);
    expect(labels(axis.ticks)).toEqual(['560', '580', '600', '620', '640', '660', '680', '700']);
    expect(axis.ticks[0]!.position).toBe(0);
    expect(axis.ticks.at(-1)!.position).toBe(1);
    expect(labels(valueAxis([98_000, 131_500]).ticks)).toEqual(['90,000', '1,00,000', '1,10,000', '1,20,000', '1,30,000', '1,40,000']);
    expect(valueAxis([98_000, 131_500]).labelChars).toBe(8);
  });

  it('gives a flat line a band around it, and an empty chart an axis', () => {
    const flat = valueAxis([104.5, 104.5]);
    expect(flat.min).toBeLessThan(104.5);
    expect(flat.max).toBeGreaterThan(104.5);
    expect(valueAxis([]).ticks.length).toBeGreaterThan(1);
  });

  it.each<[string, string, string[], string[], string[]]>([
    // first, last, then the ticks under 640 px, to 960 px, and wider
    ['2025-11-24', '2026-11-24', ['Jan 26', 'Apr 26', 'Jul 26', 'Oct 26'], ['Jan 26', 'Apr 26', 'Jul 26', 'Oct 26'], ['Dec 25', 'Jan 26', 'Feb 26', 'Mar 26', 'Apr 26', 'May 26', 'Jun 26', 'Jul 26', 'Aug 26', 'Sep 26', 'Oct 26', 'Nov 26']],
    ['2014-01-01', '2026-11-24', ['2015', '2020', '2025'], ['2014', '2016', '2018', '2020', '2022', '2024', '2026'], ['2014', '2016', '2018', '2020', '2022', '2024', '2026']],
    ['2026-10-01', '2026-11-24', ['Oct 26', 'Nov 26'], ['4 Oct', '11 Oct', '18 Oct', '25 Oct', '1 Nov', '8 Nov', '15 Nov', '22 Nov'], ['4 Oct', '11 Oct', '18 Oct', '25 Oct', '1 Nov', '8 Nov', '15 Nov', '22 Nov']],
  ])('time ticks from %s to %s, thinned per width', (first, last, ...expected) => {
    const axis = timeAxis([first, last]);
    expect(axis.map(labels)).toEqual(expected);
    axis.forEach((ticks, tier) => expect(ticks.length).toBeLessThanOrEqual(TIME_TICK_TIERS[tier]!.max));
    for (const tick of axis.flat()) expect(tick.position >= 0 && tick.position <= 1).toBe(true);
  });

  it('puts a one-date chart in the middle, and both axes come from the lines', () => {
    expect(timeAxis(['2026-11-24'])).toEqual(TIME_TICK_TIERS.map(() => [expect.objectContaining({ position: 0.5 })]));
    const axes = chartAxes([{ data: [{ x: '2026-01-01', y: 10 }] }, { data: [{ x: '2026-12-31', y: 30 }] }]);
    expect([axes.value.min, axes.value.max]).toEqual([10, 30]);
    expect(labels(axes.time[0]!)).toEqual(['Jan 26', 'Apr 26', 'Jul 26', 'Oct 26']);
  });

  it('leaves room for the x labels below the plot', () => {
    expect(plotHeightOf(320)).toBe(292);
    expect(plotHeightOf(50)).toBe(120);
  });

  it('switches tiers at the widths the chart CSS says', () => {
    const css = readFileSync(new URL('../../src/components/Chart.astro', import.meta.url), 'utf8');
    expect(css).toContain(`@container chart (width < ${TIME_TICK_TIERS[0]!.belowPx}px)`);
    expect(css).toContain(`@container chart (width >= ${TIME_TICK_TIERS[1]!.belowPx}px)`);
  });

  it('passes lines to an island as compact text and reads them back the same', () => {
    const lines = [{ id: 'Naphtha · Japan', data: [{ x: '2026-11-20', y: 612.5 }, { x: '2026-11-23', y: 615 }] }];
    const text = encodeLines(lines);
    expect(decodeLines(text)).toEqual(lines);
    expect(text.split('"').length - 1).toBe(2);
  });
});

describe('chart geometry', () => {
  const dates = ['2025-01-01', '2025-01-02', '2025-01-10', '2025-01-31'];
  it.each([
    [0, '2025-01-01'],
    [-1, '2025-01-01'],
    [1, '2025-01-31'],
    [2, '2025-01-31'],
    [0.25, '2025-01-10'], // day 7.5: nearer the 10th than the 2nd
    [0.1, '2025-01-02'],
    [0.6, '2025-01-10'], // day 18: the 10th (8 days) beats the 31st (13 days)
  ])('the date nearest position %d is %s', (fraction, date) => expect(nearestDate(dates, fraction)).toBe(date));

  it('places dates on the time axis and merges lines', () => {
    expect(positionOf(dates, '2025-01-31')).toBe(1);
    expect(positionOf(dates, '2025-01-16')).toBeCloseTo(0.5);
    expect(nearestDate([], 0.5)).toBeNull();
    expect(allDates([{ data: [{ x: '2025-01-02' }, { x: '2025-01-01' }] }, { data: [{ x: '2025-01-02' }, { x: '2025-01-03' }] }])).toEqual(['2025-01-01', '2025-01-02', '2025-01-03']);
  });
});
