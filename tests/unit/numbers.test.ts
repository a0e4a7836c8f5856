/** Issue 20: numbers written by one owner (src/lib/numbers.ts): decimals per unit, Indian grouping for ₹, no float noise. */
import { describe, expect, it } from 'vitest';
import {
  decimalsOf,
  formatChange,
  formatCount,
  formatFixed,
  formatInvoiceAmount,
  formatNumber,
  formatPaise,
  formatPercent,
  formatPercentFigure,
  formatPercentSize,
  formatPercentThreshold,
  formatPrice,
  formatRupees,
  formatShare,
  plainNumber,
  priceValue,
  priceWithUnit,
  roundTo,
} from '../../src/lib/numbers.ts';
import { UNIT_FACTS } from '../../src/lib/units.ts';

describe('roundTo: on the decimal digits, never leaving float noise', () => {
  it.each([
    [90.10000000000001, 4, 90.1],
    [0.1 + 0.2, 2, 0.3],
    [1.005, 2, 1.01],
    [1.0049999, 2, 1],
    [104.125, 2, 104.13],
    [-104.125, 2, -104.13],
    [-0.004, 2, 0],
    [612.5, 0, 613],
    [1085, 0, 1085],
    [1e-7, 2, 0],
    [123456789.987654, 4, 123456789.9877],
  ])('roundTo(%d, %d) = %d', (value, decimals, expected) => {
    expect(roundTo(value, decimals)).toBe(expected);
    expect(Object.is(roundTo(value, decimals), -0)).toBe(false);
  });

  it('keeps what is not a number as it is', () => {
    expect(roundTo(Number.NaN, 2)).toBeNaN();
    expect(roundTo(Number.POSITIVE_INFINITY, 2)).toBe(Number.POSITIVE_INFINITY);
  });

  it('rounds a price to its quoting: the unit’s decimals, or the fewer its basis quotes', () => {
    expect(priceValue(90.10000000000001, { unit: '₹/US$' })).toBe(90.1);
    expect(priceValue(612.255, { unit: 'US$/t' })).toBe(612.26);
    expect(priceValue(1084.6, { unit: 'US$/t', decimals: 0 })).toBe(1085);
    expect(decimalsOf({ unit: '₹/kg' })).toBe(2);
    expect(decimalsOf({ unit: 'US$/t', decimals: 0 })).toBe(0);
    expect(Object.fromEntries(Object.entries(UNIT_FACTS).map(([u, f]) => [u, f.decimals]))).toEqual({ '₹/kg': 2, 'US$/t': 2, 'US$/bbl': 2, '₹/US$': 4, 'RMB/t': 0 });
  });
});

describe('formatting for a page', () => {
  it('writes every decimal of the quoting, with the grouping of its currency', () => {
    expect(formatPrice(104.5, { unit: '₹/kg' })).toBe('104.50');
    expect(formatPrice(123456.5, { unit: '₹/kg' })).toBe('1,23,456.50');
    expect(formatPrice(1234567, { unit: 'US$/t' })).toBe('1,234,567.00');
    expect(formatPrice(1085, { unit: 'US$/t', decimals: 0 })).toBe('1,085');
    expect(formatPrice(90.1, { unit: '₹/US$' })).toBe('90.1000');
    expect(formatPrice(7450.4, { unit: 'RMB/t' })).toBe('7,450');
    expect(formatPrice(90.10000000000001, { unit: '₹/US$' })).toBe('90.1000');
  });

  it('writes a price with its unit as a trader does', () => {
    expect(priceWithUnit(104.5, { unit: '₹/kg' })).toBe('₹104.50/kg');
    expect(priceWithUnit(1085, { unit: 'US$/t', decimals: 0 })).toBe('US$1,085/t');
    expect(priceWithUnit(80.1, { unit: 'US$/bbl' })).toBe('US$80.10/bbl');
    expect(priceWithUnit(7450, { unit: 'RMB/t' })).toBe('RMB 7,450/t');
    expect(priceWithUnit(-1.5, { unit: '₹/kg' })).toBe('−₹1.50/kg');
  });

  it('writes changes with a real minus sign, in the price’s decimals, and their tone', () => {
    expect(formatChange(1.5, 1.23, { unit: '₹/kg' })).toEqual({ text: '+1.50 (+1.23%)', tone: 'up' });
    expect(formatChange(-2, -0.5, { unit: 'US$/t', decimals: 0 })).toEqual({ text: '−2 (−0.50%)', tone: 'down' });
    expect(formatChange(0.0000001, 0, { unit: '₹/kg' })).toEqual({ text: '0.00 (0.00%)', tone: 'flat' });
    expect(formatChange(1.5, 1.23)).toEqual({ text: '+1.5 (+1.23%)', tone: 'up' });
    expect(formatChange(null, null)).toEqual({ text: '—', tone: 'flat' });
    expect(formatPercent(-0.456)).toBe('−0.46%');
  });

  it('writes other figures and money in Indian grouping', () => {
    expect(formatNumber(123456.789)).toBe('1,23,456.79');
    expect(formatNumber(100)).toBe('100');
    expect(formatRupees(110070.5)).toBe('₹1,10,070.50');
  });
});

describe('every other figure, one rule each', () => {
  it('writes percentages: signed changes, sizes beside an arrow, figures, shares and thresholds', () => {
    expect(formatPercent(2.44, 1)).toBe('+2.4%');
    expect(formatPercent(-0.75, 1)).toBe('−0.8%');
    expect(formatPercent(0.04, 1)).toBe('0.0%');
    expect(formatPercent(-0.004)).toBe('0.00%');
    expect(formatPercentSize(-0.4068)).toBe('0.41%');
    expect(formatPercentSize(2.449, 1)).toBe('2.4%');
    // Decimal rounding, not binary: 1.005 is 1.01, where toFixed wrote 1.00.
    expect(formatPercentSize(1.005)).toBe('1.01%');
    expect(formatPercentFigure(2.75, 1)).toBe('2.8%');
    expect(formatPercentFigure(-0.5, 1)).toBe('−0.5%');
    expect(formatShare(0.555)).toBe('56%');
    expect(formatShare(1)).toBe('100%');
    expect(formatPercentThreshold(2.5)).toBe('2.5%');
    expect(formatPercentThreshold(3)).toBe('3%');
  });

  it('writes counts and fixed-decimal figures in Indian grouping', () => {
    expect(formatCount(120000)).toBe('1,20,000');
    expect(formatCount(50000)).toBe('50,000');
    expect(formatFixed(0.73698, 4)).toBe('0.7370');
    expect(formatFixed(-1234.5, 1)).toBe('−1,234.5');
  });

  it('writes money held in paise: on a page with paise only when there are some, on a GST document always', () => {
    expect(formatPaise(550_000)).toBe('₹5,500');
    expect(formatPaise(466_102)).toBe('₹4,661.02');
    expect(formatPaise(127_118_64)).toBe('₹1,27,118.64');
    expect(formatPaise(-1_506)).toBe('−₹15.06');
    expect(formatInvoiceAmount(550_000)).toBe('5,500.00');
    expect(formatInvoiceAmount(-5)).toBe('-0.05');
    expect(() => formatInvoiceAmount(0.5)).toThrow(RangeError);
  });

  it('writes a number for a program plainly: no grouping, no exponent', () => {
    expect(plainNumber(1234567.5)).toBe('1234567.5');
    expect(plainNumber(1e-7)).toBe('0.0000001');
    expect(plainNumber(90.1)).toBe('90.1');
    expect(plainNumber(Number.NaN)).toBe('');
  });
});
