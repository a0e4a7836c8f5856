/**
 * GST on a plan price, in paise, exactly. Plan prices are quoted GST-inclusive (the plan table),
 * so the tax is worked backwards from the price the buyer pays:
 *
 *   taxable value = price × 100 / 118, rounded to the nearest paisa (half a paisa up)
 *   GST           = price − taxable value        (so taxable value + GST = price, always)
 *   intra-state   : CGST = GST / 2 and SGST (UTGST in a Union Territory without a legislature)
 *                   = the rest; an odd paisa goes to CGST
 *   inter-state   : IGST = GST
 *
 * The taxable value never depends on where the buyer is: the "price before tax" /pricing shows
 * is the taxable value of every invoice for that price. Each tax line is within one paisa of its
 * rate applied to the taxable value (tests/unit/gst.test.ts checks this over a sweep of prices).
 * Integer arithmetic only: no float ever touches an amount.
 */
import type { GstState } from './states.ts';

/** The GST rate on online information and database access or retrieval services (SAC 998431). */
export const GST_RATE_PERCENT = 18;

function assertPaise(paise: number, what: string): void {
  if (!Number.isSafeInteger(paise) || paise < 0 || !Number.isSafeInteger(paise * 200)) throw new RangeError(`${what} must be a whole number of paise ≥ 0: ${paise}`);
}

/** The taxable value (price before tax) of a GST-inclusive price, in paise. */
export function taxableValueOf(inclusivePaise: number, ratePercent: number = GST_RATE_PERCENT): number {
  assertPaise(inclusivePaise, 'A price');
  const denominator = 100 + ratePercent;
  // round(p × 100 / d), half up, in integers: floor((2 × 100 × p + d) / 2d).
  return Math.floor((200 * inclusivePaise + denominator) / (2 * denominator));
}

export type SupplyKind = 'intra-state' | 'inter-state';
export type TaxName = 'CGST' | 'SGST' | 'UTGST' | 'IGST';

export interface TaxLine {
  readonly tax: TaxName;
  /** Per cent of the taxable value (9 for each half, 18 for IGST). */
  readonly ratePercent: number;
  readonly amountPaise: number;
}

export interface TaxSplit {
  readonly kind: SupplyKind;
  readonly taxablePaise: number;
  /** CGST and SGST/UTGST, or IGST alone. */
  readonly lines: readonly TaxLine[];
  readonly taxPaise: number;
  /** taxable + tax: the GST-inclusive price. */
  readonly totalPaise: number;
}

/**
 * Intra-state when the place of supply is the supplier's own state (the GSTIN's state), else
 * inter-state (IGST Act, section 12(2); see docs/payments.md).
 */
export const supplyKindOf = (supplier: GstState, placeOfSupply: GstState): SupplyKind => (supplier.code === placeOfSupply.code ? 'intra-state' : 'inter-state');

/** The tax lines of a GST-inclusive price supplied from `supplier`'s state to `placeOfSupply`. */
export function splitInclusivePrice(inclusivePaise: number, supplier: GstState, placeOfSupply: GstState, ratePercent: number = GST_RATE_PERCENT): TaxSplit {
  const taxablePaise = taxableValueOf(inclusivePaise, ratePercent);
  const taxPaise = inclusivePaise - taxablePaise;
  const kind = supplyKindOf(supplier, placeOfSupply);
  const lines: TaxLine[] =
    kind === 'inter-state'
      ? [{ tax: 'IGST', ratePercent, amountPaise: taxPaise }]
      : [
          { tax: 'CGST', ratePercent: ratePercent / 2, amountPaise: Math.ceil(taxPaise / 2) },
          { tax: supplier.unionTerritory ? 'UTGST' : 'SGST', ratePercent: ratePercent / 2, amountPaise: Math.floor(taxPaise / 2) },
        ];
  return { kind, taxablePaise, lines, taxPaise, totalPaise: inclusivePaise };
}
