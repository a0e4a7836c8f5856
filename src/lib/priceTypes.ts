/** The shapes of price data shared by the generator, the store port, shaping and screens. */
import type { IsoDate } from './dates.ts';

export interface PricePoint {
  readonly date: IsoDate;
  readonly value: number;
}

export interface CityPriceRow {
  /** City slug from the catalog. */
  readonly city: string;
  /** Polymer slug (`PP`, `HDPE`, …): the sheet's grouping. */
  readonly polymerType: string;
  /** Grade key (`ppRaffia`). */
  readonly grade: string;
  /** ₹/kg, 18% GST included (the city's basis: src/lib/catalog.ts, cityBasis). */
  readonly price: number;
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

