import { describe, expect, it } from 'vitest';
import { businessDaysBetween, freshnessOf, freshnessReport } from '../../src/lib/admin/freshness.ts';
import { checkImport, countBySeries } from '../../src/lib/admin/priceImport.ts';
import { CSV_HEADER } from '../../src/lib/csv.ts';
import { UNIT_RANGES, valueProblem } from '../../src/lib/priceRanges.ts';
import { findSeries } from '../../src/lib/seriesCatalog.ts';

const brent = findSeries('feedstock.crude.brent')!;
const weekly = findSeries('historical.ppRaffia.mumbai')!;

describe('business days', () => {
  it.each([
    ['2026-11-20', '2026-11-20', 0], // Friday → same day
    ['2026-11-20', '2026-11-23', 1], // Friday → Monday
    ['2026-11-20', '2026-11-22', 0], // Friday → Sunday
    ['2026-11-16', '2026-11-23', 5], // Monday → next Monday
    ['2026-11-02', '2026-11-25', 17],
    ['2026-11-25', '2026-11-20', 0],
  ])('%s → %s: %i', (from, to, n) => expect(businessDaysBetween(from, to)).toBe(n));
});

describe('freshness', () => {
  it('a daily series is stale after 3 business days, a weekend is not counted', () => {
    expect(freshnessOf(brent, '2026-11-20', '2026-11-25').stale).toBe(false); // Fri → Wed: 3 business days
    expect(freshnessOf(brent, '2026-11-20', '2026-11-26').stale).toBe(true); // Fri → Thu: 4
    expect(freshnessOf(brent, '2026-11-20', '2026-11-26').age).toBe(4);
  });
  it('a weekly series is stale after 10 days; a series without points is stale', () => {
    expect(freshnessOf(weekly, '2026-11-12', '2026-11-22').stale).toBe(false);
    expect(freshnessOf(weekly, '2026-11-11', '2026-11-22').stale).toBe(true);
    expect(freshnessOf(weekly, null, '2026-11-22')).toMatchObject({ stale: true, age: null });
  });
  it('sorts stale first, oldest first', () => {
    const report = freshnessReport([brent, weekly], new Map([['feedstock.crude.brent', '2026-11-01'], ['historical.ppRaffia.mumbai', '2026-11-20']]), '2026-11-22');
    expect(report.map((f) => [f.series.id, f.stale])).toEqual([['feedstock.crude.brent', true], ['historical.ppRaffia.mumbai', false]]);
  });
});

describe('value ranges by unit', () => {
  it('accepts values inside the range, refuses others', () => {
    expect(valueProblem('USD/bbl', 88.88)).toBeNull();
    expect(valueProblem('USD/bbl', 501)).toMatch(/between 5 and 500/);
    expect(valueProblem('INR/USD', 39)).not.toBeNull();
    expect(valueProblem('Rs/Kg', -1)).toMatch(/positive/);
    expect(valueProblem('US$/MT', Number.NaN)).toMatch(/number/);
    for (const range of Object.values(UNIT_RANGES)) expect(range.min).toBeGreaterThan(0);
  });
});

describe('import check', () => {
  it('names line and field; blank lines keep line numbers right', () => {
    const check = checkImport(`${CSV_HEADER}\n\nfx.usdinr,2025-01-02,83\n\nfx.usdinr,2025-01-03,300\n`);
    expect(check).toEqual({ ok: false, tooManyRows: false, errors: [{ line: 5, field: 'value', message: expect.stringMatching(/between 40 and 200/) }] });
  });
  it('passes a good file and counts rows per series', () => {
    const check = checkImport(`\uFEFF${CSV_HEADER}\r\nfx.usdinr,2025-01-02,83\r\nfeedstock.crude.brent,2025-01-02,80\r\nfx.usdinr,2025-01-03,83.5\r\n`);
    expect(check.ok).toBe(true);
    if (check.ok) expect(countBySeries(check.rows)).toEqual({ 'fx.usdinr': 2, 'feedstock.crude.brent': 1 });
  });
});
