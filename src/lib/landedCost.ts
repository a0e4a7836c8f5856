/**
 * Landed cost of an import into India, per the customs arithmetic (pure; see docs/data.md):
 *
 *   assessable value  = CIF (US$/t) × customs exchange rate (₹/US$)
 *   basic customs duty (BCD) = assessable × BCD %
 *   social welfare surcharge (SWS) = BCD × SWS %            (a surcharge on the duty)
 *   IGST = (assessable + BCD + SWS) × IGST %
 *   landed (₹/t) = assessable + BCD + SWS + IGST + port & clearing charges (₹/t)
 *   ₹/kg = landed ÷ 1000
 *
 * IGST is creditable for a GST-registered buyer, so the cost net of IGST is shown beside it.
 */
import { formatNumber, roundTo } from './numbers.ts';

export interface LandedCostInput {
  /** CIF price, US$ per tonne. */
  readonly cifUsdPerTonne: number;
  /** Customs exchange rate, ₹ per US$. */
  readonly exchangeRate: number;
  /** Basic customs duty, % of assessable value. */
  readonly bcdPct: number;
  /** Social welfare surcharge, % of BCD. */
  readonly swsPct: number;
  /** IGST, % of (assessable + BCD + SWS). */
  readonly igstPct: number;
  /** Port, handling and clearing charges, ₹ per tonne. */
  readonly portChargesPerTonne: number;
}

export interface LandedCost {
  readonly assessable: number;
  readonly bcd: number;
  readonly sws: number;
  readonly igst: number;
  readonly portCharges: number;
  /** ₹ per tonne, IGST included. */
  readonly landedPerTonne: number;
  /** ₹ per kg, IGST included. */
  readonly landedPerKg: number;
  /** ₹ per kg after the IGST input credit. */
  readonly netOfIgstPerKg: number;
}

/** Typical values for polymers (PP, PE, PVC): 7.5% BCD, 10% SWS, 18% IGST, ₹1,500/t at the port. */
export const DEFAULT_RATES = { bcdPct: 7.5, swsPct: 10, igstPct: 18, portChargesPerTonne: 1500 } as const;

const r2 = (value: number): number => roundTo(value, 2);

export function landedCost(input: LandedCostInput): LandedCost {
  const assessable = input.cifUsdPerTonne * input.exchangeRate;
  const bcd = (assessable * input.bcdPct) / 100;
  const sws = (bcd * input.swsPct) / 100;
  const igst = ((assessable + bcd + sws) * input.igstPct) / 100;
  const landedPerTonne = assessable + bcd + sws + igst + input.portChargesPerTonne;
  return {
    assessable: r2(assessable),
    bcd: r2(bcd),
    sws: r2(sws),
    igst: r2(igst),
    portCharges: r2(input.portChargesPerTonne),
    landedPerTonne: r2(landedPerTonne),
    landedPerKg: r2(landedPerTonne / 1000),
    netOfIgstPerKg: r2((landedPerTonne - igst) / 1000),
  };
}

export type LandedCostField = keyof LandedCostInput;

/** Each field's label and allowed range (inclusive), in form order. */
export const LANDED_COST_FIELDS: readonly { field: LandedCostField; label: string; min: number; max: number; step: string }[] = [
  { field: 'cifUsdPerTonne', label: 'CIF price (US$/t)', min: 1, max: 100_000, step: '0.01' },
  { field: 'exchangeRate', label: 'Customs exchange rate (₹/US$)', min: 1, max: 1_000, step: '0.01' },
  { field: 'bcdPct', label: 'Basic customs duty (%)', min: 0, max: 100, step: '0.01' },
  { field: 'swsPct', label: 'Social welfare surcharge (% of BCD)', min: 0, max: 100, step: '0.01' },
  { field: 'igstPct', label: 'IGST (%)', min: 0, max: 100, step: '0.01' },
  { field: 'portChargesPerTonne', label: 'Port & clearing charges (₹/t)', min: 0, max: 1_000_000, step: '1' },
];

export type Validation =
  | { readonly ok: true; readonly value: LandedCostInput }
  | { readonly ok: false; readonly errors: Partial<Record<LandedCostField, string>> };

/**
 * Validates raw form text (from a query string or an input box): every field must be a
 * plain decimal number inside its range. Used by the island and the no-JS form alike.
 */
export function parseLandedCostInput(raw: Partial<Record<LandedCostField, string | null | undefined>>): Validation {
  const errors: Partial<Record<LandedCostField, string>> = {};
  const value: Partial<Record<LandedCostField, number>> = {};
  for (const { field, label, min, max } of LANDED_COST_FIELDS) {
    const text = (raw[field] ?? '').trim().replace(/,/g, '');
    if (text === '') {
      errors[field] = `${label} is required.`;
      continue;
    }
    if (!/^\d+(\.\d+)?$/.test(text)) {
      errors[field] = `${label} must be a number.`;
      continue;
    }
    const n = Number(text);
    if (n < min || n > max) {
      errors[field] = `${label} must be between ${formatNumber(min)} and ${formatNumber(max)}.`;
      continue;
    }
    value[field] = n;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: value as LandedCostInput };
}

/**
 * How a landed import compares with the domestic price of the same grade (issue 20: the
 * calculator explains the gap). Both with their tax: IGST on the import and GST on the domestic
 * price are both credited back to a registered buyer, so the gap is in the price itself. Per kg.
 */
export interface ParityGap {
  /** Landed cost incl. IGST. */
  readonly landedPerKg: number;
  /** The domestic price incl. GST. */
  readonly domesticPerKg: number;
  /** landed − domestic (positive: the import costs more). */
  readonly gapPerKg: number;
  /** The gap as a percentage of the landed cost. */
  readonly gapPct: number;
  /** Basic customs duty and its surcharge: what only the import pays. */
  readonly dutiesPerKg: number;
  readonly portPerKg: number;
}

export function parityGap(landed: LandedCost, domesticPerKg: number): ParityGap {
  const gap = landed.landedPerKg - domesticPerKg;
  return {
    landedPerKg: landed.landedPerKg,
    domesticPerKg,
    gapPerKg: r2(gap),
    gapPct: r2((gap / landed.landedPerKg) * 100),
    dutiesPerKg: r2((landed.bcd + landed.sws) / 1000),
    portPerKg: r2(landed.portCharges / 1000),
  };
}
