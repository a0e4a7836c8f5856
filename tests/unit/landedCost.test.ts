import { describe, expect, it } from 'vitest';
import { DEFAULT_RATES, landedCost, parityGap, parseLandedCostInput } from '../../src/lib/landedCost.ts';

describe('landedCost', () => {
  it('matches a worked example done by hand', () => {
    // CIF US$1,000/t at ₹85/US$:
    //   assessable 85,000; BCD 7.5% = 6,375; SWS 10% of BCD = 637.50;
    //   IGST 18% of (85,000 + 6,375 + 637.50 = 92,012.50) = 16,562.25;
    //   port ₹1,500/t → landed 110,074.75 ₹/t = ₹110.07/kg; net of IGST 93,512.50 ₹/t = ₹93.51/kg.
    const result = landedCost({ cifUsdPerTonne: 1000, exchangeRate: 85, bcdPct: 7.5, swsPct: 10, igstPct: 18, portChargesPerTonne: 1500 });
    expect(result).toEqual({
      assessable: 85_000,
      bcd: 6_375,
      sws: 637.5,
      igst: 16_562.25,
      portCharges: 1_500,
      landedPerTonne: 110_074.75,
      landedPerKg: 110.07,
      netOfIgstPerKg: 93.51,
    });
  });

  it('with no duties and no charges is CIF × rate ÷ 1000', () => {
    const result = landedCost({ cifUsdPerTonne: 1200, exchangeRate: 90, bcdPct: 0, swsPct: 0, igstPct: 0, portChargesPerTonne: 0 });
    expect(result.landedPerKg).toBe(108);
    expect(result.netOfIgstPerKg).toBe(108);
  });

  it('SWS is charged on the duty, not on the value', () => {
    const noSws = landedCost({ cifUsdPerTonne: 1000, exchangeRate: 80, bcdPct: 10, swsPct: 0, igstPct: 0, portChargesPerTonne: 0 });
    const withSws = landedCost({ cifUsdPerTonne: 1000, exchangeRate: 80, bcdPct: 10, swsPct: 10, igstPct: 0, portChargesPerTonne: 0 });
    expect(withSws.landedPerTonne - noSws.landedPerTonne).toBeCloseTo(800, 6); // 10% of BCD 8,000
  });
});

describe('parseLandedCostInput', () => {
  const good = { cifUsdPerTonne: '1,050.5', exchangeRate: '88.1', bcdPct: '7.5', swsPct: '10', igstPct: '18', portChargesPerTonne: '1500' };

  it('accepts plain numbers (thousands commas allowed)', () => {
    const parsed = parseLandedCostInput(good);
    expect(parsed).toEqual({ ok: true, value: { cifUsdPerTonne: 1050.5, exchangeRate: 88.1, bcdPct: 7.5, swsPct: 10, igstPct: 18, portChargesPerTonne: 1500 } });
  });

  it.each([
    ['cifUsdPerTonne', '', 'required'],
    ['cifUsdPerTonne', 'abc', 'must be a number'],
    ['cifUsdPerTonne', '0', 'between'],
    ['exchangeRate', '-85', 'must be a number'],
    ['bcdPct', '101', 'between'],
    ['igstPct', '1e2', 'must be a number'],
    ['portChargesPerTonne', 'Infinity', 'must be a number'],
  ] as const)('rejects %s = %j with a message for that field', (field, text, message) => {
    const parsed = parseLandedCostInput({ ...good, [field]: text });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.errors)).toEqual([field]);
    expect(parsed.errors[field]).toContain(message);
  });

  it('has sensible defaults for polymers', () => {
    expect(DEFAULT_RATES).toEqual({ bcdPct: 7.5, swsPct: 10, igstPct: 18, portChargesPerTonne: 1500 });
  });
});

describe('parityGap', () => {
  it('sets the landed cost (incl. IGST) against a domestic price (incl. GST) and names what only the import pays', () => {
    const landed = landedCost({ cifUsdPerTonne: 1000, exchangeRate: 85, ...DEFAULT_RATES });
    // ₹110.07/kg landed against ₹107.50/kg domestic: ₹2.57/kg, 2.33% of the landed cost.
    expect(parityGap(landed, 107.5)).toEqual({ landedPerKg: 110.07, domesticPerKg: 107.5, gapPerKg: 2.57, gapPct: 2.33, dutiesPerKg: 7.01, portPerKg: 1.5 });
    expect(parityGap(landed, 112).gapPerKg).toBe(-1.93);
  });
});
