/**
 * The basis of a price (issue 20): where it is, on which delivery terms, with or without which
 * taxes, in which unit, what kind of price it is, when it is published and from what. The
 * catalog (src/lib/catalog.ts) declares a basis for every price it names; this module holds the
 * shape and the words, so a chart card, a table, an export, an API answer and a WhatsApp line
 * all say the same thing the same way.
 *
 * Built to take what comes next without a new shape: producer list prices (kind `list`,
 * ex-works or ex-depot, published `as-revised` with each price's effective date), ranges where
 * the market quotes them (`quotes: 'range'`, low and high stored, the mid derived), and the
 * customs exchange rate (kind `notified`, `as-notified`, each rate with its notification),
 * beside the daily market reference rate (kind `reference`).
 */
import { decimalsOf } from './numbers.ts';
import { UNIT_FACTS, type PriceUnit } from './units.ts';

/** Incoterms and the Indian domestic terms a price can be quoted on. */
export const DELIVERY_TERMS = ['FOB', 'FAS', 'CFR', 'CIF', 'ex-works', 'ex-depot', 'ex-godown', 'ex-tank'] as const;
export type DeliveryTerms = (typeof DELIVERY_TERMS)[number];

/** What the number is: who set it and how. */
export const PRICE_KINDS = ['assessment', 'list', 'offer', 'settlement', 'notified', 'reference'] as const;
export type PriceKind = (typeof PRICE_KINDS)[number];

export const KIND_TEXT: Readonly<Record<PriceKind, string>> = {
  assessment: 'desk assessment of traded levels',
  list: 'producer list price',
  offer: 'offers (sellers’ asking prices)',
  settlement: 'exchange settlement price',
  notified: 'official rate notified by the government',
  reference: 'official reference rate',
};

/** The kind as a short word after the place ("CIF Nhava Sheva offers"); an assessment needs none. */
const KIND_SHORT: Readonly<Record<PriceKind, string>> = {
  assessment: '',
  list: 'list price',
  offer: 'offers',
  settlement: 'settlement',
  notified: 'notified rate',
  reference: 'reference rate',
};

export const TERMS_TEXT: Readonly<Record<DeliveryTerms, string>> = {
  FOB: 'free on board at the loading port',
  FAS: 'free alongside ship at the loading port',
  CFR: 'cost and freight to the port named (also written C&F): insurance and duties are the buyer’s',
  CIF: 'cost, insurance and freight to the port named; import duties and taxes are the buyer’s',
  'ex-works': 'at the producer’s plant or depot gate, loaded on the buyer’s truck',
  'ex-depot': 'at the producer’s depot, loaded on the buyer’s truck',
  'ex-godown': 'at the distributor’s or trader’s warehouse in the city, loaded on the buyer’s truck',
  'ex-tank': 'from the storage tank at the terminal named',
};

export interface Location {
  /** As a trader names it: "Nhava Sheva", "Mumbai", "South-East Asia". */
  readonly name: string;
  readonly kind: 'port' | 'city' | 'region' | 'country' | 'exchange';
  /** More precise words for the methodology: "Jawaharlal Nehru Port (JNPT), Navi Mumbai, India". */
  readonly detail?: string | undefined;
}

export interface TaxBasis {
  readonly treatment: 'included' | 'excluded' | 'not-applicable';
  /** Which taxes: "18% GST", "import duties and taxes". */
  readonly taxes: string;
}

export const PUBLICATION_FREQUENCIES = ['daily', 'weekly', 'twice-monthly', 'as-revised', 'as-notified'] as const;
export type PublicationFrequency = (typeof PUBLICATION_FREQUENCIES)[number];

export interface Publication {
  readonly frequency: PublicationFrequency;
  /** Which days: "Mon–Fri", "Mondays", "1st and 15th". */
  readonly days: string;
  /** By when it is on PolyIndex, India time, "HH:MM". */
  readonly byIst: string;
  /** Anything else a reader needs about the timing ("for the previous trading day"). */
  readonly note?: string | undefined;
}

/** The methodology pages, one per family of prices (src/pages/methodology/). */
export const METHODOLOGY_FAMILIES = [
  { slug: 'feedstocks', name: 'Feedstocks' },
  { slug: 'indian-city-wise', name: 'Indian city-wise prices' },
  { slug: 'international-offers', name: 'International offers' },
  { slug: 'producer-prices', name: 'Producer list prices' },
  { slug: 'exchange-rates', name: 'Exchange rates' },
  { slug: 'historical-grades', name: 'Historical prices by grade' },
] as const;
export type MethodologyFamily = (typeof METHODOLOGY_FAMILIES)[number]['slug'];

export const methodologyPath = (family: MethodologyFamily): string => `/methodology/${family}`;
export const findMethodologyFamily = (slug: string | undefined) => METHODOLOGY_FAMILIES.find((f) => f.slug === slug);

export interface Basis {
  readonly location: Location;
  /** Delivery terms; null for what is not a delivered price (an exchange rate, a futures settlement). */
  readonly terms: DeliveryTerms | null;
  /** The benchmark's own name where terms and place do not say it: "ICE Brent futures", "FBIL". */
  readonly benchmark?: string | undefined;
  readonly taxes: TaxBasis;
  readonly unit: PriceUnit;
  /** Fewer decimals than the unit's, where the market quotes so (polymers in whole US$ per tonne). */
  readonly decimals?: number | undefined;
  readonly kind: PriceKind;
  readonly publication: Publication;
  /** Who or what the number comes from. */
  readonly source: string;
  readonly methodology: MethodologyFamily;
  /** `range` where the market quotes low–high (kept as a low and a high, the mid derived). */
  readonly quotes: 'single' | 'range';
  /** What sets it apart from a price it could be mistaken for. */
  readonly note?: string | undefined;
}

// ---- words ---------------------------------------------------------------------------

/**
 * Terms and place as a trader says them: "CFR Japan", "ex-godown Mumbai", "ex-depot Mumbai". The
 * terms say what kind of place it is (a depot, a plant, a port), so the place is its name alone:
 * never "ex-depot Mumbai depot".
 */
export const termsAt = (terms: DeliveryTerms, place: string): string => `${terms} ${place}`;

/** "CFR Japan", "ex-godown Mumbai", "ICE Brent futures", "FBIL". */
export const placeOf = (basis: Basis): string => basis.benchmark ?? (basis.terms ? termsAt(basis.terms, basis.location.name) : basis.location.name);

/** "incl. 18% GST", "excl. import duties and taxes", "no taxes apply". */
export function taxesText(taxes: TaxBasis): string {
  switch (taxes.treatment) {
    case 'included':
      return `incl. ${taxes.taxes}`;
    case 'excluded':
      return `excl. ${taxes.taxes}`;
    case 'not-applicable':
      return `no taxes (${taxes.taxes})`;
  }
}

const FREQUENCY_TEXT: Readonly<Record<PublicationFrequency, string>> = {
  daily: 'daily',
  weekly: 'weekly',
  'twice-monthly': 'twice a month',
  'as-revised': 'when revised',
  'as-notified': 'when notified',
};

/** "daily (Mon–Fri) by 17:30 IST", "weekly (Mondays) by 18:00 IST (after the producers’ weekly list-price revisions)". */
export const publicationText = (p: Publication): string => `${FREQUENCY_TEXT[p.frequency]} (${p.days}) by ${p.byIst} IST${p.note ? ` (${p.note})` : ''}`;

/**
 * The short form, for a line of a message, a legend or a ticker: place (and the kind, unless it
 * is an assessment), the taxes when they are included or a rupee price leaves them out (an
 * international price is understood without duties), the unit.
 * "CFR Japan, US$/t" · "ex-godown Mumbai, incl. 18% GST, ₹/kg" · "CIF Nhava Sheva offers, US$/t" ·
 * "ICE Brent futures settlement, US$/bbl" · "FBIL reference rate, ₹/US$".
 */
export function basisShort(basis: Basis): string {
  const kind = KIND_SHORT[basis.kind];
  const place = kind ? `${placeOf(basis)} ${kind}` : placeOf(basis);
  const { treatment } = basis.taxes;
  const taxes = treatment === 'included' || (treatment === 'excluded' && UNIT_FACTS[basis.unit].currency === 'INR') ? taxesText(basis.taxes) : null;
  return [place, taxes, basis.unit].filter(Boolean).join(', ');
}

/** `quoted` is said only by the methodology pages, for a range-quoted price (src/lib/methodology.ts). */
export type BasisFactKey = 'basis' | 'price' | 'quoted' | 'taxes' | 'unit' | 'published' | 'source' | 'methodology';

export interface BasisFact {
  readonly key: BasisFactKey;
  /** The heading a reader sees: "Basis", "Price", "Taxes" … */
  readonly label: string;
  readonly value: string;
}

/**
 * The basis as the list of facts every surface shows, in one order: the chart cards and tables
 * (src/components/BasisLine.astro), the header rows of the CSV and XLSX exports, `/api/series`
 * and the methodology pages. None of the values holds a comma, so the CSV can carry them.
 */
export function basisFacts(basis: Basis): BasisFact[] {
  return [
    { key: 'basis', label: 'Basis', value: placeOf(basis) },
    { key: 'price', label: 'Price', value: KIND_TEXT[basis.kind] },
    { key: 'taxes', label: 'Taxes', value: taxesText(basis.taxes) },
    { key: 'unit', label: 'Unit', value: basis.unit },
    { key: 'published', label: 'Published', value: publicationText(basis.publication) },
    { key: 'source', label: 'Source', value: basis.source },
    { key: 'methodology', label: 'Methodology', value: methodologyPath(basis.methodology) },
  ];
}

/** The basis as `/api/series` answers it (and what a later API may answer for any price). */
export function basisJson(basis: Basis) {
  return {
    location: basis.location.name,
    locationKind: basis.location.kind,
    terms: basis.terms,
    benchmark: basis.benchmark ?? null,
    taxes: taxesText(basis.taxes),
    taxesIncluded: basis.taxes.treatment === 'included',
    unit: basis.unit,
    currency: UNIT_FACTS[basis.unit].currency,
    decimals: decimalsOf(basis),
    kind: basis.kind,
    frequency: basis.publication.frequency,
    published: publicationText(basis.publication),
    source: basis.source,
    quotes: basis.quotes,
    methodology: methodologyPath(basis.methodology),
    short: basisShort(basis),
  };
}

/**
 * What makes two prices the same price: place, terms, taxes, unit and kind. Two series with the
 * same product and the same key must carry the same numbers (what a consistency check compares);
 * two that differ say how through `basisDifferences`.
 */
export const basisKey = (basis: Basis): string =>
  [basis.benchmark ?? '', basis.terms ?? '', basis.location.name, basis.taxes.treatment, basis.taxes.taxes, basis.unit, basis.kind].join('|');

/** The facts in which two bases differ, in words: ["Basis: FOB South-East Asia, not CFR South-East Asia"]. */
export function basisDifferences(a: Basis, b: Basis): string[] {
  const factsB = new Map(basisFacts(b).map((f) => [f.key, f.value]));
  return basisFacts(a)
    .filter((f) => f.key !== 'methodology' && f.key !== 'source' && factsB.get(f.key) !== f.value)
    .map((f) => `${f.label}: ${f.value}, not ${factsB.get(f.key)}`);
}

/**
 * The basis as the `key=value` fields of a CSV header row (src/lib/csv.ts) or the rows of an
 * XLSX header: the series' label, then every fact, the methodology as an absolute address.
 */
export function basisFields(basis: Basis, label: string, site: string | URL): [string, string][] {
  return [
    ['label', label],
    ...basisFacts(basis).map((f): [string, string] => [f.key, f.key === 'methodology' ? new URL(f.value, site).href : f.value]),
    ['decimals', String(decimalsOf(basis))],
  ];
}

/** The intro header row of a price file (no comma: it is one CSV cell). */
export const csvIntro = (site: string | URL): string =>
  `PolyIndex prices: each series’ basis on its own row below and then one row per price. Methodology: ${new URL('/methodology', site).href}`;
