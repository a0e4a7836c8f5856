/** The shapes of price data shared by the generator, the store port, shaping and screens. */
import type { IsoDate } from './dates.ts';

/**
 * A price as the store keeps it: a single value, or (where the market quotes a range: the
 * basis' `quotes`) a low and a high with `value` their mid, derived by src/lib/quotes.ts and
 * never typed. Low and high come both or neither.
 */
export interface Quote {
  readonly value: number;
  readonly low?: number | undefined;
  readonly high?: number | undefined;
}

export interface PricePoint extends Quote {
  readonly date: IsoDate;
}

export interface CityPriceRow {
  /** City slug from the catalog. */
  readonly city: string;
  /** Polymer slug (`PP`, `HDPE`, …): the sheet's grouping. */
  readonly polymerType: string;
  /** Grade key (`ppRaffia`). */
  readonly grade: string;
  /** ₹/kg, 18% GST included (the city's basis: src/lib/catalog.ts, cityBasis); for a range, its mid. */
  readonly price: number;
  /** The range's low and high (both or neither: src/lib/quotes.ts). */
  readonly low?: number | undefined;
  readonly high?: number | undefined;
  readonly date: IsoDate;
}

/**
 * `{ group: { grade: value } }`, e.g. `{ PP: { Raffia: 1085 } }` (US$/t; the country's basis:
 * src/lib/catalog.ts, offerBasis); a cell quoted as a range holds its mid.
 */
export type OfferData = Record<string, Record<string, number>>;

/** The ends of an offer cell quoted as a range; its value in `data` is their mid (src/lib/quotes.ts). */
export interface OfferRange {
  readonly low: number;
  readonly high: number;
}

/** `{ group: { grade: {low, high} } }`: the cells of an offer day that are ranges, e.g. `{ PP: { Raffia: {low: 1005, high: 1025} } }`. */
export type OfferRanges = Record<string, Record<string, OfferRange>>;

/** A country's offers of one date: every cell's value, and the ends of those quoted as ranges. */
export interface OfferDay {
  readonly data: OfferData;
  /** Only when at least one cell is a range (a day of single values has no key: checksums of those are unchanged). */
  readonly ranges?: OfferRanges | undefined;
}

export interface OfferRecord extends OfferDay {
  /** Global-bazaar country slug. */
  readonly country: string;
  readonly date: IsoDate;
}

