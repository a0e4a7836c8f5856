/**
 * The catalog: every section, slug, sub-market, country, polymer, grade, city and unit the
 * product knows, written once, and the basis of every price it names (issue 20: where, on which
 * terms, with which taxes, in which unit, what kind of price, when and from what; the shape and
 * the words are src/lib/basis.ts). Navigation, routes, API validation, the sitemap and the demo
 * data generator all read these lists; nothing else may spell a slug or a basis out.
 */
import type { Basis, DeliveryTerms, Location } from './basis.ts';
import type { PriceUnit } from './units.ts';

/**
 * The spellings before issue 20, kept for src/lib/delivery/messages.ts only (it
 * indexes its own table by them) until it writes `basisShort()`. Use PriceUnit.
 */
/** A choice shown to the trader (`display`) and sent to the API (`call`). */
export interface Choice {
  readonly display: string;
  readonly call: string;
}

/** A feedstock market: the choice, and the basis its price is assessed on. */
export interface FeedstockMarket extends Choice {
  readonly basis: Basis;
}

export interface Feedstock {
  readonly slug: string;
  readonly name: string;
  readonly unit: PriceUnit;
  readonly subMarkets: readonly FeedstockMarket[];
}

// ---- bases ------------------------------------------------------------------------------

const DESK = 'PolyIndex price desk';

const place = (name: string, kind: Location['kind'], detail?: string): Location => ({ name, kind, detail });
const SEA = place('South-East Asia', 'region', 'Singapore, Malaysia, Indonesia, Thailand, Vietnam and the Philippines');
const NEA = place('North-East Asia', 'region', 'Japan, South Korea and Taiwan');
const FEA = place('Far East Asia', 'region', 'China, Taiwan, South Korea and Japan');
const CHINA = place('China', 'country', 'main ports of East and South China');
const KOREA = place('Korea', 'country', 'South Korean loading ports (Ulsan, Yeosu, Daesan)');
const JAPAN = place('Japan', 'country', 'Japanese discharge ports (the market’s “C&F Japan”)');
const MUMBAI = place('Mumbai', 'city', 'Mumbai and its producer depots (Thane, Bhiwandi, Taloja)');
const NHAVA_SHEVA = place('Nhava Sheva', 'port', 'Jawaharlal Nehru Port (JNPT), Navi Mumbai, India');

/** The Asian feedstock assessments: the desk's close, duties and taxes for the buyer. */
const asianAssessment = (unit: PriceUnit, terms: DeliveryTerms, location: Location, note?: string): Basis => ({
  location,
  terms,
  taxes: { treatment: 'excluded', taxes: 'import duties and taxes' },
  unit,
  kind: 'assessment',
  publication: { frequency: 'daily', days: 'Mon–Fri', byIst: '17:30', note: 'after the Singapore close at 14:00 IST' },
  source: DESK,
  methodology: 'feedstocks',
  quotes: 'single',
  note,
});

interface MarketSpec {
  readonly display: string;
  readonly call?: string | undefined;
  /** The basis, given the feedstock's unit. */
  readonly basis: (unit: PriceUnit) => Basis;
}

const feedstock = (slug: string, name: string, unit: PriceUnit, markets: readonly MarketSpec[]): Feedstock => ({
  slug,
  name,
  unit,
  subMarkets: markets.map((m) => ({ display: m.display, call: m.call ?? m.display.toLowerCase(), basis: m.basis(unit) })),
});

const assessed = (display: string, terms: DeliveryTerms, location: Location, call?: string, note?: string): MarketSpec => ({
  display,
  call,
  basis: (unit) => asianAssessment(unit, terms, location, note),
});

export const feedstocks: readonly Feedstock[] = [
  feedstock('Crude', 'Crude oil', 'US$/bbl', [
    {
      display: 'Brent',
      basis: (unit) => ({
        location: place('ICE Futures Europe', 'exchange', 'ICE Futures Europe, London: the Brent crude futures contract (physical basis FOB North Sea)'),
        terms: null,
        benchmark: 'ICE Brent futures',
        taxes: { treatment: 'not-applicable', taxes: 'a futures contract' },
        unit,
        kind: 'settlement',
        publication: { frequency: 'daily', days: 'Mon–Fri', byIst: '07:00', note: 'the next morning: the exchange settles at 19:30 London time' },
        source: 'ICE Futures Europe: front-month settlement',
        methodology: 'feedstocks',
        quotes: 'single',
      }),
    },
  ]),
  feedstock('Naphtha', 'Naphtha', 'US$/t', [assessed('Japan', 'CFR', JAPAN), assessed('China', 'CFR', CHINA)]),
  feedstock('Propylene', 'Propylene', 'US$/t', [assessed('Korea', 'FOB', KOREA), assessed('China', 'CFR', CHINA)]),
  feedstock('Ethylene', 'Ethylene', 'US$/t', [assessed('NEA', 'CFR', NEA), assessed('SEA', 'CFR', SEA)]),
  feedstock('Styrene', 'Styrene monomer', 'US$/t', [assessed('China', 'CFR', CHINA), assessed('Korea', 'FOB', KOREA)]),
  feedstock('EDC', 'Ethylene dichloride', 'US$/t', [
    assessed('SEA', 'FOB', SEA, undefined, 'the loading price in South-East Asia; the CFR SEA series adds the freight to a South-East Asian port'),
    assessed('CFR SEA', 'CFR', SEA, 'cfr_sea', 'delivered to a South-East Asian port; the SEA series is the loading (FOB) price before freight'),
    assessed('CFR FEA', 'CFR', FEA, 'cfr_fea'),
  ]),
  feedstock('VCM', 'Vinyl chloride monomer', 'US$/t', [assessed('SEA', 'CFR', SEA)]),
  feedstock('PTA', 'Purified terephthalic acid', 'US$/t', [assessed('China', 'CFR', CHINA)]),
  feedstock('MEG', 'Mono ethylene glycol', 'US$/t', [assessed('China', 'CFR', CHINA)]),
  feedstock('ACN', 'Acrylonitrile', 'US$/t', [assessed('SEA', 'CFR', SEA)]),
  feedstock('Butadiene', 'Butadiene', 'US$/t', [assessed('China', 'CFR', CHINA)]),
  feedstock('VA', 'Vinyl acetate', 'RMB/t', [
    {
      display: 'China',
      basis: (unit) => ({
        ...asianAssessment(unit, 'ex-tank', place('East China', 'region', 'storage terminals of Jiangsu and Zhejiang'), 'a domestic Chinese price in renminbi'),
        taxes: { treatment: 'included', taxes: '13% Chinese VAT' },
      }),
    },
  ]),
];

export interface Product {
  readonly slug: string;
  readonly name: string;
}

export const futureTrendProducts: readonly Product[] = [
  { slug: 'PP', name: 'Polypropylene (PP)' },
  { slug: 'PE', name: 'Polyethylene (PE)' },
  { slug: 'PVC', name: 'Polyvinyl chloride (PVC)' },
  { slug: 'PET', name: 'PET resin' },
  { slug: 'PS', name: 'Polystyrene (PS)' },
  { slug: 'ABS', name: 'ABS' },
  { slug: 'EVA', name: 'EVA' },
  { slug: 'PC', name: 'Polycarbonate (PC)' },
  { slug: 'SAN', name: 'SAN' },
  { slug: 'nylon-6-nylon-66', name: 'Nylon 6 / Nylon 66' },
  { slug: 'PBT', name: 'PBT' },
  { slug: 'POM', name: 'POM (acetal)' },
  { slug: 'PMMA', name: 'PMMA (acrylic)' },
  { slug: 'bopp', name: 'BOPP film' },
  { slug: 'polyester', name: 'Polyester' },
];

/** A global-bazaar country: where its offers are quoted, and on which terms. */
export interface OfferMarket extends Product {
  readonly terms: DeliveryTerms;
  readonly port: Location;
  /** Origins and the like, in a few words. */
  readonly note?: string | undefined;
}

const offerMarket = (slug: string, name: string, terms: DeliveryTerms, port: Location, note?: string): OfferMarket => ({ slug, name, terms, port, note });

export const globalBazaarCountries: readonly OfferMarket[] = [
  offerMarket('USA', 'USA', 'FOB', place('Houston', 'port', 'Houston, Texas: export offers of US producers'), 'export offers from the US Gulf'),
  offerMarket('Europe', 'Europe', 'CIF', place('Antwerp', 'port', 'Antwerp–Rotterdam, North-West Europe'), 'import offers into North-West Europe'),
  offerMarket('china', 'China', 'CIF', place('China main ports', 'port', 'Shanghai, Ningbo and the South China ports'), 'import offers into China'),
  offerMarket('India', 'India', 'CIF', NHAVA_SHEVA, 'import offers into India: mostly Middle East and South-East Asian origin'),
  offerMarket('Pakistan', 'Pakistan', 'CIF', place('Karachi', 'port', 'Karachi and Port Qasim, Pakistan')),
  offerMarket('Nepal', 'Nepal', 'CIF', place('Kolkata', 'port', 'Kolkata (Haldia), in transit to Nepal through Birgunj'), 'offers for Nepal, landed at Kolkata in transit'),
  offerMarket('Srilanka', 'Sri Lanka', 'CIF', place('Colombo', 'port', 'Colombo, Sri Lanka')),
  offerMarket('Bangladesh', 'Bangladesh', 'CIF', place('Chattogram', 'port', 'Chattogram, Bangladesh')),
  offerMarket('AsianNation', 'ASEAN nations', 'CIF', place('South-East Asia', 'region', 'main ports of Vietnam, Indonesia, Thailand, Malaysia and the Philippines')),
  offerMarket('ksa', 'Saudi Arabia', 'FOB', place('Jubail', 'port', 'Jubail, Saudi Arabia: export offers of Saudi producers'), 'export offers from Saudi Arabia'),
  offerMarket('MiddleEast', 'Middle East', 'FOB', place('Jebel Ali', 'port', 'Jebel Ali, UAE: export offers of Gulf producers'), 'export offers from the Gulf'),
  offerMarket('Turkey', 'Turkey', 'CIF', place('Mersin', 'port', 'Mersin and the Marmara ports, Turkey')),
  offerMarket('Egypt', 'Egypt', 'CIF', place('Alexandria', 'port', 'Alexandria, Egypt')),
];

/** The basis of a country's international offers (the global bazaar). */
export const offerBasis = (country: OfferMarket): Basis => ({
  location: country.port,
  terms: country.terms,
  taxes: { treatment: 'excluded', taxes: 'import duties and taxes' },
  unit: 'US$/t',
  decimals: 0,
  kind: 'offer',
  publication: { frequency: 'twice-monthly', days: 'first weekday on or after the 1st and the 15th', byIst: '18:00' },
  source: `${DESK}: offers of producers and traders for shipment within 30 days against LC at sight`,
  methodology: 'international-offers',
  quotes: 'range',
  note: country.note,
});

export interface Grade {
  /** Display name, e.g. "Blow moulding". */
  readonly name: string;
  /** The API's lower-camel key, e.g. "hdpeBlowMoulding". */
  readonly key: string;
}

export interface Polymer {
  readonly slug: 'PP' | 'HDPE' | 'LLDPE' | 'LDPE' | 'PVC';
  readonly name: string;
  readonly grades: readonly Grade[];
}

const lowerCamel = (polymer: string, grade: string): string =>
  polymer.toLowerCase() +
  grade
    .split(/\s+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join('');

const polymer = (slug: Polymer['slug'], name: string, grades: readonly string[]): Polymer => ({
  slug,
  name,
  grades: grades.map((grade) => ({ name: grade, key: lowerCamel(slug, grade) })),
});

export const polymers: readonly Polymer[] = [
  polymer('PP', 'Polypropylene', ['Raffia', 'Film', 'Injection moulding', 'ICP', 'Random copolymer']),
  polymer('HDPE', 'High-density polyethylene', ['Raffia', 'Injection', 'Blow moulding', 'Film']),
  polymer('LLDPE', 'Linear low-density polyethylene', ['Film', 'Roto moulding', 'Injection', 'Lamination']),
  polymer('LDPE', 'Low-density polyethylene', ['General', 'Lamination']),
  polymer('PVC', 'Polyvinyl chloride', ['Extrusion', 'Injection']),
];

/** The two historical series every polymer grade has, with their bases. */
export const historicalSeries = [
  {
    name: 'Mumbai',
    label: 'Mumbai ex-works (incl. GST)',
    basis: {
      location: MUMBAI,
      terms: 'ex-works',
      taxes: { treatment: 'included', taxes: '18% GST' },
      unit: '₹/kg',
      kind: 'assessment',
      publication: { frequency: 'weekly', days: 'Mondays', byIst: '18:00', note: 'after the producers’ weekly list-price revisions' },
      source: `${DESK}: producers’ depot prices and the deals done at them`,
      methodology: 'historical-grades',
      quotes: 'single',
      note: 'the price at the producers’ gates and depots around Mumbai; the city-wise Mumbai sheet is the traders’ ex-godown resale level',
    },
  },
  {
    name: 'CIF NS',
    label: 'CIF Nhava Sheva',
    basis: {
      location: NHAVA_SHEVA,
      terms: 'CIF',
      taxes: { treatment: 'excluded', taxes: 'customs duty and IGST' },
      unit: 'US$/t',
      decimals: 0,
      kind: 'assessment',
      publication: { frequency: 'weekly', days: 'Fridays', byIst: '18:00' },
      source: `${DESK}: import deals and workable offers for shipment within 30 days`,
      methodology: 'historical-grades',
      quotes: 'range',
      note: 'a weekly assessment of the import price; the global-bazaar India offers are the sellers’ asking prices twice a month',
    },
  },
] as const satisfies readonly { name: string; label: string; basis: Basis }[];

export const indianBazaarSections: readonly Product[] = [
  { slug: 'citywise', name: 'City-wise prices' },
  { slug: 'rateRevision', name: 'Rate revisions' },
  { slug: 'pricePrediction', name: 'Price prediction' },
  { slug: 'companyPrice', name: 'Company prices' },
  { slug: 'customExchangeRate', name: 'Customs exchange rate (USD → INR)' },
  { slug: 'boppFilm', name: 'BOPP film' },
  { slug: 'importCalculation', name: 'Import (landed cost) calculator' },
  { slug: 'indianGovernmentPolicies', name: 'Government policies' },
];

/** Indian-bazaar sections that are lists of posts (the rest are data screens). */
export const indianBazaarPostTypes = [
  'rateRevision',
  'pricePrediction',
  'companyPrice',
  'boppFilm',
  'indianGovernmentPolicies',
] as const;

export const services: readonly Product[] = [
  { slug: 'events', name: 'Events' },
  { slug: 'press-release', name: 'Press releases' },
  { slug: 'whatsapp-chatbot', name: 'WhatsApp chatbot' },
];

export const vipDelegationYears: readonly number[] = [2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025];

export const cities: readonly Product[] = [
  { slug: 'ahmedabad', name: 'Ahmedabad' },
  { slug: 'mumbai', name: 'Mumbai' },
  { slug: 'delhi', name: 'Delhi' },
  { slug: 'kolkata', name: 'Kolkata' },
  { slug: 'bangalore', name: 'Bangalore' },
  { slug: 'pune', name: 'Pune' },
  { slug: 'indore', name: 'Indore' },
];

/** The basis of a city's sheet (the city-wise prices). */
export const cityBasis = (city: Product): Basis => ({
  location: place(city.name, 'city'),
  terms: 'ex-godown',
  taxes: { treatment: 'included', taxes: '18% GST' },
  unit: '₹/kg',
  kind: 'assessment',
  publication: { frequency: 'weekly', days: 'Mondays', byIst: '18:00' },
  source: `${DESK}: distributors’ and traders’ resale prices and the deals done`,
  methodology: 'indian-city-wise',
  quotes: 'range',
  note: 'the distributors’ and traders’ resale level in the city; producers’ ex-works prices are the historical Mumbai series',
});

/** The US dollar's rupee rate kept as a daily series: the market's reference rate (the customs rate is notified apart). */
export const usdInrReferenceBasis: Basis = {
  location: place('India', 'country', 'the inter-bank market in Mumbai'),
  terms: null,
  benchmark: 'FBIL',
  taxes: { treatment: 'not-applicable', taxes: 'an exchange rate' },
  unit: '₹/US$',
  kind: 'reference',
  publication: { frequency: 'daily', days: 'Mon–Fri', byIst: '13:30', note: 'on Indian business days' },
  source: 'Financial Benchmarks India (FBIL): US$/INR reference rate',
  methodology: 'exchange-rates',
  quotes: 'single',
  note: 'the market rate of the day; customs value imports at the rate CBIC notifies every fortnight, which can differ',
};

/** The customs exchange rate: notified by CBIC, in force from a notification's effective date until the next (src/lib/customsRates.ts). */
export const customsRateBasis: Basis = {
  location: place('India', 'country', 'Indian customs: imports valued under section 14 of the Customs Act, 1962'),
  terms: null,
  benchmark: 'CBIC customs rate',
  taxes: { treatment: 'not-applicable', taxes: 'an exchange rate' },
  unit: '₹/US$',
  decimals: 2,
  kind: 'notified',
  publication: { frequency: 'as-notified', days: 'usually the first and third Thursday of a month', byIst: '20:00', note: 'in force from the effective date the notification names' },
  source: 'Central Board of Indirect Taxes and Customs (CBIC): exchange-rate notifications, Customs (N.T.) series',
  methodology: 'exchange-rates',
  quotes: 'single',
  note: 'the rate customs value imports at; the FBIL reference rate is the market’s rate of the day',
};

/**
 * Post types of the newsroom. `future-trend/<product>`, `global-bazaar/<country>` and
 * `services/<service>` are one type per catalog entry; `vip-delegations` holds the desk's
 * delegation reports.
 */
export const newsTypes = [
  'buy-sell',
  'plant-news',
  ...indianBazaarPostTypes,
  ...futureTrendProducts.map((p) => `future-trend/${p.slug}` as const),
  ...globalBazaarCountries.map((c) => `global-bazaar/${c.slug}` as const),
  'vip-delegations',
  ...services.map((s) => `services/${s.slug}` as const),
  'blog',
  'daily-tweet',
] as const;
export type NewsType = (typeof newsTypes)[number];

export const isNewsType = (value: string): value is NewsType => (newsTypes as readonly string[]).includes(value);

/**
 * The site section whose page lists a type's posts (`/future-trend/PP`, `/buy-sell` …); null for
 * the types only the news pages list (blog, daily tweets). The access policy reads it: a type's
 * posts are for whoever may open its section.
 */
export function newsTypeSectionPath(type: NewsType): string | null {
  if (type === 'buy-sell' || type === 'plant-news' || type === 'vip-delegations') return `/${type}`;
  if (type === 'blog' || type === 'daily-tweet') return null;
  if (type.startsWith('future-trend/') || type.startsWith('global-bazaar/') || type.startsWith('services/')) return `/${type}`;
  return `/indian-bazaar/${type}`;
}

/**
 * The `type` values the original's clients send to `/api/blogs` (the screen that asked:
 * `PlantNews`, a future-trend product `PP`, a country `India` …), as today's types. Today's keys
 * are accepted as they are; see resolveNewsType for case.
 */
export const legacyNewsTypes: Readonly<Record<string, NewsType>> = Object.fromEntries([
  ['PlantNews', 'plant-news'],
  ['BuySell', 'buy-sell'],
  ['VipDelegations', 'vip-delegations'],
  ['DailyTweet', 'daily-tweet'],
  ['Blog', 'blog'],
  ['Blogs', 'blog'],
  ...futureTrendProducts.map((p) => [p.slug, `future-trend/${p.slug}`]),
  ...globalBazaarCountries.map((c) => [c.slug, `global-bazaar/${c.slug}`]),
  ...services.map((s) => [s.slug, `services/${s.slug}`]),
] as [string, NewsType][]);

/**
 * A news type from today's key or a legacy value: exact first, then ignoring case (the legacy
 * API matched names in any case); null when nothing matches.
 */
export function resolveNewsType(value: string): NewsType | null {
  const text = value.trim();
  if (isNewsType(text)) return text;
  const legacy = legacyNewsTypes[text];
  if (legacy) return legacy;
  const lower = text.toLowerCase();
  return newsTypes.find((t) => t.toLowerCase() === lower) ?? Object.entries(legacyNewsTypes).find(([alias]) => alias.toLowerCase() === lower)?.[1] ?? null;
}

// ---- look-ups -------------------------------------------------------------------------

const bySlug = <T extends { slug: string }>(list: readonly T[], slug: string | undefined): T | undefined =>
  slug === undefined ? undefined : list.find((item) => item.slug === slug);

export const findFeedstock = (slug: string | undefined) => bySlug(feedstocks, slug);
/** Case-insensitive, like the legacy API: `country=China` and `country=china` are one market. */
export const findFeedstockInsensitive = (name: string): Feedstock | undefined =>
  feedstocks.find((f) => f.slug.toLowerCase() === name.toLowerCase());
export const findSubMarket = (feedstock: Feedstock, call: string): FeedstockMarket | undefined =>
  feedstock.subMarkets.find((m) => m.call.toLowerCase() === call.toLowerCase());
export const findFutureTrendProduct = (slug: string | undefined) => bySlug(futureTrendProducts, slug);
export const findCountry = (slug: string | undefined) => bySlug(globalBazaarCountries, slug);
export const findPolymer = (slug: string | undefined) => bySlug(polymers, slug);
export const findIndianBazaarSection = (slug: string | undefined) => bySlug(indianBazaarSections, slug);
export const findService = (slug: string | undefined) => bySlug(services, slug);
export const findCity = (slug: string | undefined): Product | undefined =>
  slug === undefined ? undefined : cities.find((c) => c.slug === slug.toLowerCase());

export interface GradeRef {
  readonly polymer: Polymer;
  readonly grade: Grade;
}
export const allGrades: readonly GradeRef[] = polymers.flatMap((p) => p.grades.map((grade) => ({ polymer: p, grade })));
/** `ppRaffia` → PP Raffia. Exact match: the key is an API identifier. */
export const findGrade = (key: string): GradeRef | undefined => allGrades.find((g) => g.grade.key === key);

/** A display name's words, lower case, British "moulding": `PP Raffia`, `pp-raffia` and `PP_raffia` read alike. */
const nameWords = (text: string): string =>
  text.trim().toLowerCase().replace(/molding/g, 'moulding').split(/[\s_-]+/).filter(Boolean).join(' ');
const gradesByName = new Map(allGrades.map((g) => [nameWords(`${g.polymer.slug} ${g.grade.name}`), g]));

/**
 * A grade by its key (`ppRaffia`, exact), or by the display name the original's clients send:
 * the polymer and the grade's words apart (`PP Raffia`, `HDPE Blow Moulding`, `lldpe roto-molding`),
 * case and US spelling aside. Run together (`PPRAFFIA`) is neither.
 */
export const findGradeByKeyOrName = (text: string): GradeRef | undefined => {
  const words = nameWords(text);
  return findGrade(text.trim()) ?? (words.includes(' ') ? gradesByName.get(words) : undefined);
};

export const isVipYear = (year: number): boolean => vipDelegationYears.includes(year);
