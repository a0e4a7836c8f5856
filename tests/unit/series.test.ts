import { describe, expect, it } from 'vitest';
import { cityVsCity, pickSheetDate } from '../../src/lib/citywise.ts';
import {
  averageByPeriod,
  lastTwelveMonths,
  periodStart,
  sortAndRealign,
  summarize,
  thin,
  toDateValue,
  toKeyValue,
  weekStart,
  yearRange,
} from '../../src/lib/series.ts';

describe('sortAndRealign', () => {
  it('sorts dates ascending and carries each value with its date', () => {
    const points = sortAndRealign(['03/01/2025', '01/01/2025', '02/01/2025'], [30, 10, 20]);
    expect(points).toEqual([
      { date: '2025-01-01', value: 10 },
      { date: '2025-01-02', value: 20 },
      { date: '2025-01-03', value: 30 },
    ]);
  });

  it('orders by calendar date, not by the dd/mm/yyyy text', () => {
    // Text order would put 01/02/2025 before 31/01/2024.
    const points = sortAndRealign(['01/02/2025', '31/01/2024', '15/12/2024'], [3, 1, 2]);
    expect(points.map((p) => p.value)).toEqual([1, 2, 3]);
  });

  it('accepts ISO dates, drops unreadable dates and non-finite values, keeps the last duplicate', () => {
    const points = sortAndRealign(['2025-01-02', 'garbage', '31/02/2025', '2025-01-01', '2025-01-02', '2025-01-03'], [1, 2, 3, 4, 5, Number.NaN]);
    expect(points).toEqual([
      { date: '2025-01-01', value: 4 },
      { date: '2025-01-02', value: 5 },
    ]);
  });

  it('ignores the tail of the longer list', () => {
    expect(sortAndRealign(['2025-01-01', '2025-01-02'], [1])).toEqual([{ date: '2025-01-01', value: 1 }]);
  });
});

describe('legacy date forms', () => {
  const points = [
    { date: '2025-01-05', value: 1.5 },
    { date: '2025-12-31', value: 2 },
  ];
  it('shapes {key,value} with dd/mm/yyyy keys', () => {
    expect(toKeyValue(points, 2)).toEqual({ key: ['05/01/2025', '31/12/2025'], value: [1.5, 2] });
  });
  it('shapes {date,value} for historical series', () => {
    expect(toDateValue(points, 2)).toEqual({ date: ['05/01/2025', '31/12/2025'], value: [1.5, 2] });
  });
});

describe('periods', () => {
  it('starts ISO weeks on Monday, across month and year boundaries', () => {
    expect(weekStart('2025-01-01')).toBe('2024-12-30'); // Wednesday → Monday of the previous year
    expect(weekStart('2024-12-30')).toBe('2024-12-30'); // a Monday is its own start
    expect(weekStart('2025-01-05')).toBe('2024-12-30'); // Sunday belongs to the week before
    expect(weekStart('2025-01-06')).toBe('2025-01-06');
    expect(weekStart('2024-03-03')).toBe('2024-02-26'); // across a leap February
  });

  it('labels months and years by their first day', () => {
    expect(periodStart('2025-07-19', 'Monthly')).toBe('2025-07-01');
    expect(periodStart('2025-07-19', 'Yearly')).toBe('2025-01-01');
    expect(periodStart('2025-07-19', 'Daily')).toBe('2025-07-19');
  });

  const daily = [
    { date: '2024-12-30', value: 10 }, // Mon, week of 30 Dec
    { date: '2024-12-31', value: 20 }, // Tue
    { date: '2025-01-03', value: 30 }, // Fri, same week, next month and year
    { date: '2025-01-06', value: 40 }, // Mon, next week
    { date: '2025-02-03', value: 50 },
  ];

  it('Daily returns the points unchanged', () => {
    expect(averageByPeriod(daily, 'Daily')).toEqual(daily);
  });

  it('Weekly averages Monday–Sunday weeks even when they straddle a year', () => {
    expect(averageByPeriod(daily, 'Weekly')).toEqual([
      { date: '2024-12-30', value: 20 },
      { date: '2025-01-06', value: 40 },
      { date: '2025-02-03', value: 50 },
    ]);
  });

  it('Monthly and Yearly average calendar months and years', () => {
    expect(averageByPeriod(daily, 'Monthly')).toEqual([
      { date: '2024-12-01', value: 15 },
      { date: '2025-01-01', value: 35 },
      { date: '2025-02-01', value: 50 },
    ]);
    expect(averageByPeriod(daily, 'Yearly')).toEqual([
      { date: '2024-01-01', value: 15 },
      { date: '2025-01-01', value: 40 },
    ]);
  });

  it('rounds averages to two decimals and handles an empty series', () => {
    const thirds = [
      { date: '2025-01-01', value: 1 },
      { date: '2025-01-02', value: 1 },
      { date: '2025-01-03', value: 2 },
    ];
    expect(averageByPeriod(thirds, 'Monthly')).toEqual([{ date: '2025-01-01', value: 1.33 }]);
    expect(averageByPeriod([], 'Weekly')).toEqual([]);
  });
});

describe('ranges', () => {
  it('a year is 1 Jan to 31 Dec', () => {
    expect(yearRange(2020)).toEqual({ from: '2020-01-01', to: '2020-12-31' });
  });
  it('the last twelve months end today and start the day after the same date last year', () => {
    expect(lastTwelveMonths('2025-11-22')).toEqual({ from: '2024-11-23', to: '2025-11-22' });
    expect(lastTwelveMonths('2025-03-01')).toEqual({ from: '2024-03-02', to: '2025-03-01' });
    // 29 Feb has no twin last year: 28 Feb stands in.
    expect(lastTwelveMonths('2024-02-29')).toEqual({ from: '2023-03-01', to: '2024-02-29' });
  });
});

describe('summarize', () => {
  it('gives latest, change on the previous point, low and high', () => {
    const s = summarize([
      { date: '2025-01-01', value: 100 },
      { date: '2025-01-02', value: 90 },
      { date: '2025-01-03', value: 120 },
      { date: '2025-01-06', value: 110 },
    ])!;
    expect(s.latest).toEqual({ date: '2025-01-06', value: 110 });
    expect(s.previous).toEqual({ date: '2025-01-03', value: 120 });
    expect(s.change).toBe(-10);
    expect(s.changePct).toBe(-8.33);
    expect(s.low).toEqual({ date: '2025-01-02', value: 90 });
    expect(s.high).toEqual({ date: '2025-01-03', value: 120 });
  });
  it('is null for no points and has no change for one point', () => {
    expect(summarize([])).toBeNull();
    const one = summarize([{ date: '2025-01-01', value: 5 }])!;
    expect(one.change).toBeNull();
    expect(one.changePct).toBeNull();
  });
});

describe('thin', () => {
  it('keeps first and last and at most max points', () => {
    const points = Array.from({ length: 100 }, (_, i) => ({ date: `2025-01-${String((i % 28) + 1).padStart(2, '0')}`, value: i }));
    const out = thin(points, 10);
    expect(out).toHaveLength(10);
    expect(out[0]!.value).toBe(0);
    expect(out.at(-1)!.value).toBe(99);
    expect(thin(points.slice(0, 5), 10)).toHaveLength(5);
  });
});

describe('city-wise history (issue 16)', () => {
  const row = (city: string, date: string, price: number) => ({ city, polymerType: 'PP', grade: 'ppRaffia', price, date });

  it('puts two cities side by side per date, with B − A', () => {
    const rows = [row('pune', '2025-01-13', 101.5), row('mumbai', '2025-01-06', 100), row('pune', '2025-01-06', 102.25), row('delhi', '2025-01-06', 1), row('mumbai', '2025-01-20', 99)];
    expect(cityVsCity(rows, 'mumbai', 'pune')).toEqual([
      { date: '2025-01-06', a: 100, b: 102.25, difference: 2.25 },
      { date: '2025-01-13', a: null, b: 101.5, difference: null },
      { date: '2025-01-20', a: 99, b: null, difference: null },
    ]);
    expect(cityVsCity([], 'mumbai', 'pune')).toEqual([]);
  });

  it.each([
    [['2025-01-06', '2025-01-13'], '2025-01-06', '2025-01-06'],
    [['2025-01-06', '2025-01-13'], null, '2025-01-13'],
    [['2025-01-06', '2025-01-13'], '2025-01-07', '2025-01-13'],
    [['2025-01-06', '2025-01-13'], 'garbage', '2025-01-13'],
    [[], '2025-01-06', null],
  ] as const)('sheet dates %j, asked %s → %s', (dates, asked, expected) => expect(pickSheetDate(dates, asked)).toBe(expected));
});
