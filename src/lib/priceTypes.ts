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

/** `{ group: { grade: value } }`, e.g. `{ PP: { Raffia: 1085 } }` (US$/t; the country's basis: src/lib/catalog.ts, offerBasis). */
export type OfferData = Record<string, Record<string, number>>;

export interface OfferRecord {
  /** Global-bazaar country slug. */
  readonly country: string;
  readonly date: IsoDate;
  readonly data: OfferData;
}

