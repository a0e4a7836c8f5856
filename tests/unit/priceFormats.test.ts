import { describe, expect, it } from 'vitest';
import { futureTrendProducts } from '../../src/lib/catalog.ts';
import { groupByPolymer, toCityEntries, toCityRecords } from '../../src/lib/citywise.ts';
import { CSV_HEADER, parsePriceCsv, toPriceCsv } from '../../src/lib/csv.ts';
import { pickChoice, pickMonth, pickYear } from '../../src/lib/pageParams.ts';
import { relatedSeriesKeys, relatedSeriesOf } from '../../src/lib/relatedSeries.ts';
import { allSeries, findSeries } from '../../src/lib/seriesCatalog.ts';

describe('price CSV', () => {
  const points = [
    { date: '2025-01-02', value: 612.5 },
    { date: '2025-01-03', value: 610 },
  ];

  it('writes a header row and one ISO-dated row per point, in the series\' decimals', () => {
    expect(toPriceCsv({ series: 'feedstock.naphtha.japan', points, decimals: 2 })).toBe(
      `${CSV_HEADER}\nfeedstock.naphtha.japan,2025-01-02,612.5\nfeedstock.naphtha.japan,2025-01-03,610\n`,
    );
    expect(toPriceCsv({ series: 'fx.usdinr', points: [{ date: '2025-01-02', value: 90.10000000000001 }], decimals: 4 })).toBe(`${CSV_HEADER}\nfx.usdinr,2025-01-02,90.1\n`);
  });

  it('reads back what it writes', () => {
    const { rows, errors } = parsePriceCsv(toPriceCsv({ series: 'fx.usdinr', points, decimals: 4 }));
    expect(errors).toEqual([]);
    expect(rows).toEqual(points.map((p) => ({ series: 'fx.usdinr', ...p })));
  });

  it('reports every bad line and returns no rows when any is bad', () => {
    const { rows, errors } = parsePriceCsv(`${CSV_HEADER}\nfx.usdinr,2025-02-30,1\nfx.usdinr,2025-01-01,abc\nfx usdinr,2025-01-01,1\nfx.usdinr,2025-01-01\n`);
    expect(rows).toEqual([]);
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4, 5]);
    expect(parsePriceCsv('date,value\n').errors[0]!.line).toBe(1);
  });

  it('refuses a series id that would break the format', () => {
    expect(() => toPriceCsv({ series: 'a,b', points, decimals: 2 })).toThrow(RangeError);
  });
});

describe('series catalog', () => {
  it('has unique, URL-safe ids', () => {
    const ids = allSeries.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it('relates every future-trend product, and only those, to an existing series', () => {
    expect(relatedSeriesKeys.toSorted()).toEqual(futureTrendProducts.map((p) => p.slug).toSorted());
    for (const p of futureTrendProducts) expect(findSeries(relatedSeriesOf(p.slug)), p.slug).toBeDefined();
  });
});

describe('city-wise shaping', () => {
  const rows = [
    { city: 'mumbai', polymerType: 'PVC', grade: 'pvcExtrusion', price: 80, date: '2025-01-06' },
    { city: 'mumbai', polymerType: 'PP', grade: 'ppRaffia', price: 105, date: '2025-01-06' },
    { city: 'ahmedabad', polymerType: 'PP', grade: 'ppRaffia', price: 104.5, date: '2025-01-06' },
    { city: 'mumbai', polymerType: 'PP', grade: 'notAGrade', price: 1, date: '2025-01-06' },
  ];
  it('orders entries by catalog grade with display and call values', () => {
    expect(toCityEntries(rows.filter((r) => r.city === 'mumbai'))).toEqual([
      { type: 'PP', display: 'PP Raffia', call: 'ppRaffia', price: 105, date: '06/01/2025' },
      { type: 'PVC', display: 'PVC Extrusion', call: 'pvcExtrusion', price: 80, date: '06/01/2025' },
    ]);
  });
  it('lists cities in catalog order (Ahmedabad first) and groups by polymer', () => {
    const records = toCityRecords(rows);
    expect(records.map((r) => [r.city, r.call])).toEqual([['Ahmedabad', 'ahmedabad'], ['Mumbai', 'mumbai']]);
    expect(groupByPolymer(records[1]!.entries).map((g) => g.type)).toEqual(['PP', 'PVC']);
  });
});

describe('page parameters fall back instead of failing', () => {
  it('years', () => {
    expect(pickYear('2020', 2026)).toBe(2020);
    expect(pickYear('abc', 2026)).toBe(2026);
    expect(pickYear('2013', 2026)).toBe(2026); // 13 years back: outside the selector
    expect(pickYear('2027', 2026, 2025)).toBe(2025);
    expect(pickYear(null, 2026)).toBe(2026);
  });
  it('months', () => {
    expect(pickMonth('3', 1)).toBe(3);
    expect(pickMonth('13', 1)).toBe(1);
    expect(pickMonth('x', 5)).toBe(5);
  });
  it('choices, case-insensitively', () => {
    const choices = [{ call: 'japan' }, { call: 'china' }];
    expect(pickChoice('China', choices, (c) => c.call)).toBe(choices[1]);
    expect(pickChoice('mars', choices, (c) => c.call)).toBe(choices[0]);
  });
});
