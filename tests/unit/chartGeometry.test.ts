import { describe, expect, it } from 'vitest';
import { allDates, chartLayout, nearestDate, positionOf, serverChartWidth } from '../../src/lib/chartGeometry.ts';

const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null });

describe('chart geometry', () => {
  it('draws phones narrow and everything else wide', () => {
    expect(serverChartWidth(headers({ 'sec-ch-ua-mobile': '?1' }))).toBe(360);
    expect(serverChartWidth(headers({ 'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 7) Mobile Safari' }))).toBe(360);
    expect(serverChartWidth(headers({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140' }))).toBe(760);
    expect(serverChartWidth(headers({}))).toBe(760);
  });

  it('lays out the legend by width and number of lines', () => {
    expect(chartLayout(760, 320, 1)).toMatchObject({ narrow: false, legendHeight: 0, outerHeight: 320, margin: { bottom: 40, left: 64 } });
    expect(chartLayout(760, 380, 5)).toMatchObject({ narrow: false, legendHeight: 32, outerHeight: 380, margin: { bottom: 72 } });
    expect(chartLayout(360, 380, 5)).toMatchObject({ narrow: true, legendHeight: 98, outerHeight: 478 });
  });

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
