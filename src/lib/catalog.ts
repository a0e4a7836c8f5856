/**
 * The catalog: every section, slug, sub-market, country, polymer, grade, city and unit the
 * product knows, written once. Navigation, routes, API validation, the sitemap and the demo
 * data generator all read these lists; nothing else may spell a slug out.
 */

export type Unit = 'USD/bbl' | 'US$/MT' | 'RMB/Mt' | 'Rs/Kg' | 'US$/Mt' | 'INR/USD';

/** A choice shown to the trader (`display`) and sent to the API (`call`). */
export interface Choice {
  readonly display: string;
  readonly call: string;
}

export interface Feedstock {
  readonly slug: string;
  readonly name: string;
  readonly unit: Unit;
  readonly subMarkets: readonly Choice[];
}

const market = (display: string, call = display.toLowerCase()): Choice => ({ display, call });

export const feedstocks: readonly Feedstock[] = [
  { slug: 'Crude', name: 'Crude oil', unit: 'USD/bbl', subMarkets: [market('Brent')] },
  { slug: 'Naphtha', name: 'Naphtha', unit: 'US$/MT', subMarkets: [market('Japan'), market('China')] },
  { slug: 'Propylene', name: 'Propylene', unit: 'US$/MT', subMarkets: [market('Korea'), market('China')] },
  { slug: 'Ethylene', name: 'Ethylene', unit: 'US$/MT', subMarkets: [market('NEA'), market('SEA')] },
  { slug: 'Styrene', name: 'Styrene monomer', unit: 'US$/MT', subMarkets: [market('China'), market('Korea')] },
  {
    slug: 'EDC',
    name: 'Ethylene dichloride',
    unit: 'US$/MT',
    subMarkets: [market('SEA'), market('CFR SEA', 'cfr_sea'), market('CFR FEA', 'cfr_fea')],
  },
  { slug: 'VCM', name: 'Vinyl chloride monomer', unit: 'US$/MT', subMarkets: [market('SEA')] },
  { slug: 'PTA', name: 'Purified terephthalic acid', unit: 'US$/MT', subMarkets: [market('China')] },
  { slug: 'MEG', name: 'Mono ethylene glycol', unit: 'US$/MT', subMarkets: [market('China')] },
  { slug: 'ACN', name: 'Acrylonitrile', unit: 'US$/MT', subMarkets: [market('SEA')] },
  { slug: 'Butadiene', name: 'Butadiene', unit: 'US$/MT', subMarkets: [market('China')] },
  { slug: 'VA', name: 'Vinyl acetate', unit: 'RMB/Mt', subMarkets: [market('China')] },
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

export const globalBazaarCountries: readonly Product[] = [
  { slug: 'USA', name: 'USA' },
  { slug: 'Europe', name: 'Europe' },
  { slug: 'china', name: 'China' },
  { slug: 'India', name: 'India' },
  { slug: 'Pakistan', name: 'Pakistan' },
  { slug: 'Nepal', name: 'Nepal' },
  { slug: 'Srilanka', name: 'Sri Lanka' },
  { slug: 'Bangladesh', name: 'Bangladesh' },
  { slug: 'AsianNation', name: 'ASEAN nations' },
  { slug: 'ksa', name: 'Saudi Arabia' },
  { slug: 'MiddleEast', name: 'Middle East' },
  { slug: 'Turkey', name: 'Turkey' },
  { slug: 'Egypt', name: 'Egypt' },
];

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

/** The two historical series every polymer grade has, with their units. */
export const historicalSeries = [
  { name: 'Mumbai', label: 'Mumbai ex-works (incl. GST)', unit: 'Rs/Kg' },
  { name: 'CIF NS', label: 'CIF Nhava Sheva', unit: 'US$/Mt' },
] as const satisfies readonly { name: string; label: string; unit: Unit }[];

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
export const findSubMarket = (feedstock: Feedstock, call: string): Choice | undefined =>
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
