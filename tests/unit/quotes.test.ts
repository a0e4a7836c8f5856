import { describe, expect, it } from 'vitest';
import { cityRowsWithDemoRanges, demoRange, offersWithDemoRanges, withDemoRanges } from '../../src/lib/demoRanges.ts';
import { formatQuote, formatRange, quoteWithUnit } from '../../src/lib/numbers.ts';
import { isRange, midOf, offerCellsOf, offerDayOf, offerQuote, quoteOf, rangeProblem, rangeQuote, sameQuote } from '../../src/lib/quotes.ts';
import { allSeries, findSeries, seriesBasis } from '../../src/lib/seriesCatalog.ts';
import { cities, cityBasis, globalBazaarCountries, offerBasis } from '../../src/lib/catalog.ts';

describe('ranges and their mid', () => {
  it('derives the mid without float noise', () => {
    expect(midOf(1005, 1025)).toBe(1015);
    expect(midOf(1005, 1020)).toBe(1012.5);
    expect(midOf(109.1, 109.2)).toBe(109.15);
    expect(rangeQuote(0.1, 0.2)).toEqual({ value: 0.15, low: 0.1, high: 0.2 });
    expect(quoteOf({ low: 1005, high: 1025, value: null })).toEqual({ value: 1015, low: 1005, high: 1025 });
    expect(quoteOf({ value: 90.25 })).toEqual({ value: 90.25 });
    expect(isRange({ value: 1 })).toBe(false);
  });

  it.each([
    [{ value: 1015, low: 1005, high: 1025 }, null],
    [{ value: 1015 }, null],
    [{ value: 1015, low: 1005 }, 'a range needs its high as well as its low'],
    [{ value: 1015, high: 1025 }, 'a range needs its low as well as its high'],
    [{ value: 1015, low: 1025, high: 1005 }, 'the low must not be above the high'],
    [{ value: 1010, low: 1005, high: 1025 }, 'the value of a range is its mid (1015), not 1010'],
    [{ value: 1015, low: Number.NaN, high: 1025 }, 'the low and the high must be numbers'],
  ])('%j: %s', (quote, problem) => {
    expect(rangeProblem(quote)).toBe(problem);
  });

  it('compares low and high as well as the value', () => {
    expect(sameQuote({ value: 1015, low: 1005, high: 1025 }, { value: 1015, low: 1005, high: 1025 })).toBe(true);
    expect(sameQuote({ value: 1015, low: 1005, high: 1025 }, { value: 1015, low: 1010, high: 1020 })).toBe(false);
    expect(sameQuote({ value: 1015 }, { value: 1015, low: 1005, high: 1025 })).toBe(false);
    expect(sameQuote(null, { value: 1 })).toBe(false);
  });

  it('writes a range through the one number formatter: "1,005–1,025"', () => {
    const cif = seriesBasis('historical.ppRaffia.cif-ns');
    expect(formatRange(1005, 1025, cif)).toBe('1,005–1,025');
    expect(formatQuote({ value: 1015, low: 1005, high: 1025 }, cif)).toBe('1,005–1,025');
    expect(formatQuote({ value: 1015 }, cif)).toBe('1,015');
    expect(quoteWithUnit({ value: 1015, low: 1005, high: 1025 }, cif)).toBe('US$1,005–1,025/t');
    expect(quoteWithUnit({ value: 109.5, low: 109, high: 110 }, { unit: '₹/kg' })).toBe('₹109.00–110.00/kg');
  });
});

describe('which prices are quoted as ranges (the basis)', () => {
  it('CIF offers, city-wise sheets and the CIF Nhava Sheva assessments; feedstocks, Mumbai ex-works and US$/INR stay single', () => {
    for (const country of globalBazaarCountries) expect(offerBasis(country).quotes, country.slug).toBe('range');
    for (const city of cities) expect(cityBasis(city).quotes, city.slug).toBe('range');
    const ranged = allSeries.filter((s) => seriesBasis(s).quotes === 'range').map((s) => s.market);
    expect(new Set(ranged)).toEqual(new Set(['CIF NS']));
    expect(seriesBasis('fx.usdinr').quotes).toBe('single');
    expect(seriesBasis('historical.ppRaffia.mumbai').quotes).toBe('single');
  });
});

describe('offer days', () => {
  const day = { data: { PP: { Raffia: 1015, Homo: 1030 }, HDPE: {} }, ranges: { PP: { Raffia: { low: 1005, high: 1025 } } } };
  it('reads a cell as a quote, a range where the day has its ends', () => {
    expect(offerQuote(day, 'PP', 'Raffia')).toEqual({ value: 1015, low: 1005, high: 1025 });
    expect(offerQuote(day, 'PP', 'Homo')).toEqual({ value: 1030 });
    expect(offerQuote(day, 'PP', 'Copo')).toBeUndefined();
    expect(offerQuote({ data: { PP: { Raffia: 1 } } }, 'PP', 'Raffia')).toEqual({ value: 1 });
  });
  it('makes the day from its cells: ranges only when there are any, in the cells’ order, empty groups kept', () => {
    expect(offerDayOf(offerCellsOf(day))).toEqual(day);
    expect(offerDayOf({ PE: { Film: { value: 1100 } } })).toEqual({ data: { PE: { Film: 1100 } } });
    expect(Object.keys(offerDayOf({ PE: { Film: { value: 1100 } } }))).toEqual(['data']);
    const mixed = offerDayOf({ PP: { Homo: rangeQuote(1000, 1010), Raffia: { value: 990 } }, PE: { Film: rangeQuote(1095, 1105) } });
    expect(JSON.stringify(mixed.ranges)).toBe('{"PP":{"Homo":{"low":1000,"high":1010}},"PE":{"Film":{"low":1095,"high":1105}}}');
    expect(mixed.data).toEqual({ PP: { Homo: 1005, Raffia: 990 }, PE: { Film: 1100 } });
  });
});

describe('demo ranges', () => {
  it('keep the generated number as the mid, on the basis decimals, and leave single series alone', () => {
    const cif = findSeries('historical.ppRaffia.cif-ns')!;
    const points = withDemoRanges(cif, [{ date: '2026-11-20', value: 1085 }, { date: '2026-11-13', value: 1095 }]);
    for (const p of points) {
      expect(rangeProblem(p)).toBeNull();
      expect(Number.isInteger(p.low) && Number.isInteger(p.high)).toBe(true);
      expect(p.high! - p.low!).toBeGreaterThanOrEqual(10);
    }
    expect(points.map((p) => p.value)).toEqual([1085, 1095]);
    expect(withDemoRanges(findSeries('fx.usdinr')!, [{ date: '2026-11-20', value: 90.25 }])).toEqual([{ date: '2026-11-20', value: 90.25 }]);
    const [row] = cityRowsWithDemoRanges([{ city: 'pune', polymerType: 'PP', grade: 'ppRaffia', price: 110.5, date: '2026-11-23' }]);
    expect(row!.price).toBe(110.5);
    expect(rangeProblem({ value: row!.price, low: row!.low, high: row!.high })).toBeNull();
    expect(demoRange(1, { unit: 'US$/bbl' }, 'x')).toBeNull();
  });

  it('give every offer cell a range around its generated number', () => {
    const offers = [
      { country: 'India', date: '2026-11-16', data: { PP: { Raffia: 1085, Homo: 1100 }, HDPE: { Film: 1170 } } },
      { country: 'USA', date: '2026-11-16', data: { PP: { Raffia: 995 } } },
    ];
    const ranged = offersWithDemoRanges(offers);
    expect(ranged.map((o) => o.data)).toEqual(offers.map((o) => o.data));
    for (const offer of ranged) {
      for (const [group, grades] of Object.entries(offer.data)) {
        for (const grade of Object.keys(grades)) {
          const quote = offerQuote(offer, group, grade)!;
          expect(isRange(quote), `${offer.country} ${group}/${grade}`).toBe(true);
          expect(rangeProblem(quote)).toBeNull();
          expect(Number.isInteger(quote.low) && Number.isInteger(quote.high)).toBe(true);
        }
      }
    }
  });
});
