/**
 * Price units, spelled one way (issue 20). Every series, screen, export and answer writes a
 * unit exactly as `PRICE_UNITS` spells it; the facts of each unit (its currency, what it is a
 * price per, the decimals it is quoted in) live here and nowhere else. Older spellings (US$/MT,
 * Rs/Kg, USD/bbl …) are only ever *read* (a file typed by hand), never written.
 */

export const PRICE_UNITS = ['₹/kg', 'US$/t', 'US$/bbl', '₹/US$', 'RMB/t'] as const;
export type PriceUnit = (typeof PRICE_UNITS)[number];

export const isPriceUnit = (text: string): text is PriceUnit => (PRICE_UNITS as readonly string[]).includes(text);

export type Currency = 'INR' | 'USD' | 'RMB';

export interface UnitFacts {
  readonly currency: Currency;
  /** The symbol written before an amount: ₹104.50/kg, US$1,085/t. */
  readonly symbol: '₹' | 'US$' | 'RMB ';
  /** What one price is for: a kilogram, a metric tonne (1,000 kg), a barrel, one US dollar. */
  readonly per: 'kg' | 't' | 'bbl' | 'US$';
  /**
   * Decimal places a price in this unit is quoted, stored and shown with (a series' basis may
   * quote fewer, e.g. polymers in whole US$ per tonne): ₹/kg to the paisa, US$/t to the cent as
   * feedstock assessments are, the rupee reference rate to four places as FBIL publishes it,
   * RMB per tonne whole.
   */
  readonly decimals: number;
  /** In words, for methodology pages and screen readers. */
  readonly words: string;
  /** Spellings read back from a file typed by hand (case ignored); never written. */
  readonly aliases: readonly string[];
}

export const UNIT_FACTS: Readonly<Record<PriceUnit, UnitFacts>> = {
  '₹/kg': { currency: 'INR', symbol: '₹', per: 'kg', decimals: 2, words: 'Indian rupees per kilogram', aliases: ['Rs/Kg', 'Rs/kg', 'INR/kg', 'Rs per kg'] },
  'US$/t': { currency: 'USD', symbol: 'US$', per: 't', decimals: 2, words: 'US dollars per metric tonne', aliases: ['US$/MT', 'US$/Mt', 'USD/t', 'USD/MT', 'USD/Mt', '$/t', '$/MT'] },
  'US$/bbl': { currency: 'USD', symbol: 'US$', per: 'bbl', decimals: 2, words: 'US dollars per barrel', aliases: ['USD/bbl', '$/bbl'] },
  '₹/US$': { currency: 'INR', symbol: '₹', per: 'US$', decimals: 4, words: 'Indian rupees per US dollar', aliases: ['INR/USD', 'Rs/USD', 'Rs per US$', 'Rs/US$'] },
  'RMB/t': { currency: 'RMB', symbol: 'RMB ', per: 't', decimals: 0, words: 'Chinese yuan (renminbi) per metric tonne', aliases: ['RMB/Mt', 'RMB/MT', 'CNY/t'] },
};

const byAlias = new Map<string, PriceUnit>(
  PRICE_UNITS.flatMap((unit) => [[unit.toLowerCase(), unit] as const, ...UNIT_FACTS[unit].aliases.map((alias) => [alias.toLowerCase(), unit] as const)]),
);

/** A unit written by a person or an old file, in the one spelling; null when it is no unit PolyIndex knows. */
export const readUnit = (text: string): PriceUnit | null => byAlias.get(text.trim().toLowerCase()) ?? null;
