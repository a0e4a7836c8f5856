/**
 * What price delivery can send: every catalog series (feedstock markets, historical Mumbai
 * ex-works and CIF Nhava Sheva, USD/INR) and every city-wise price (city × grade, the rows of
 * `/api/citywise`). The daily update, alerts and the price bot all name prices by these ids;
 * ids, labels, units and page links are derived from the catalog here and nowhere else.
 */
import type { Basis } from '../basis.ts';
import { allGrades, cities, cityBasis, feedstocks, findGrade } from '../catalog.ts';
import { allSeries, findSeries, seriesBasis, type SeriesDef } from '../seriesCatalog.ts';
import type { PriceUnit } from '../units.ts';

export type InstrumentSource =
  | { readonly kind: 'series'; readonly seriesId: string }
  | { readonly kind: 'city'; readonly city: string; readonly grade: string };

export interface Instrument {
  /** A series id (`feedstock.naphtha.japan`), or `city.{city}.{gradeKey}` for a city-wise price. */
  readonly id: string;
  /** "Naphtha · Japan", "PP Raffia · Mumbai". */
  readonly label: string;
  /** Where, on which terms, in which unit: `basisShort(instrument.basis)` is its short form for a message. */
  readonly basis: Basis;
  /** `basis.unit`, at hand for the messages' price forms (src/lib/delivery/quoteLine.ts). */
  readonly unit: PriceUnit;
  readonly source: InstrumentSource;
  /** The page that shows it (site-relative). */
  readonly path: string;
  /** Words a trader may type for it (lower case), for the price bot. */
  readonly words: readonly string[];
  /** The words naming the product (`pp`, `naphtha`): a question must carry one of them exactly. */
  readonly productWords: readonly string[];
  /** Words the catalog writes as codes (`PP`, `HDPE`, `ICP`, `NEA`): never matched with a typo. */
  readonly codeWords: readonly string[];
  /** Words understood when not typed (the Mumbai sheet is the default city). */
  readonly impliedWords: readonly string[];
  /** The heading it is listed under ("Feedstocks", "City-wise: Mumbai", …). */
  readonly group: string;
}

export const cityInstrumentId = (city: string, grade: string): string => `city.${city}.${grade}`;

const words = (...texts: string[]): string[] => [
  ...new Set(
    texts
      .join(' ')
      .toLowerCase()
      .replace(/[^a-z0-9$]+/g, ' ')
      .split(' ')
      .filter(Boolean),
  ),
];

/** The words of these texts written in capitals in the catalog (`PP`, `LLDPE`, `ICP`, `SEA`, `CIF NS`). */
const codes = (...texts: string[]): string[] =>
  words(...texts.flatMap((text) => text.split(/[^A-Za-z0-9$]+/).filter((word) => word.length >= 2 && /[A-Z]/.test(word) && word === word.toUpperCase())));

function seriesInstrument(series: SeriesDef): Instrument {
  const source = { kind: 'series', seriesId: series.id } as const;
  const basis = seriesBasis(series);
  const unit = series.unit;
  if (series.family === 'feedstock') {
    const feedstock = feedstocks.find((f) => f.slug === series.product)!;
    const market = feedstock.subMarkets.find((m) => m.call === series.market)!;
    return {
      id: series.id,
      label: series.label,
      basis,
      unit,
      source,
      path: `/crude/${feedstock.slug}?country=${encodeURIComponent(market.call)}`,
      words: words(feedstock.slug, feedstock.name, market.display, feedstock.slug === 'Crude' ? 'brent crude oil' : ''),
      productWords: words(feedstock.slug, feedstock.name, feedstock.slug === 'Crude' ? 'brent crude oil' : ''),
      codeWords: codes(feedstock.slug, feedstock.name, market.display),
      impliedWords: [],
      group: 'Feedstocks',
    };
  }
  if (series.family === 'historical') {
    const ref = findGrade(series.grade)!;
    const mumbai = series.market === 'Mumbai';
    return {
      id: series.id,
      label: series.label,
      basis,
      unit,
      source,
      path: `/historical-data/${ref.polymer.slug}?polymer=${ref.grade.key}`,
      // "Mumbai" alone names the city sheet (it implies Mumbai); the ex-works series wants "ex works" too.
      words: words(ref.polymer.slug, ref.grade.name, mumbai ? 'mumbai ex works exworks' : 'cif nhava sheva ns import'),
      productWords: words(ref.polymer.slug),
      codeWords: codes(ref.polymer.slug, ref.grade.name, mumbai ? '' : 'CIF NS'),
      impliedWords: [],
      group: mumbai ? 'Mumbai ex-works' : 'CIF Nhava Sheva',
    };
  }
  const fx = words('usd inr usdinr dollar rupee fx exchange rate');
  return { id: series.id, label: series.label, basis, unit, source, path: '/indian-bazaar/customExchangeRate', words: fx, productWords: fx, codeWords: codes('USD INR FX'), impliedWords: [], group: 'Exchange rate' };
}

const cityInstruments: Instrument[] = cities.flatMap((city) =>
  allGrades.map(({ polymer, grade }) => ({
    id: cityInstrumentId(city.slug, grade.key),
    label: `${polymer.slug} ${grade.name} · ${city.name}`,
    basis: cityBasis(city),
    unit: '₹/kg',
    source: { kind: 'city', city: city.slug, grade: grade.key } as const,
    path: `/indian-bazaar/citywise?city=${city.slug}`,
    words: words(polymer.slug, grade.name, city.name),
    productWords: words(polymer.slug),
    codeWords: codes(polymer.slug, grade.name),
    // The Mumbai sheet is the market's benchmark: a grade without a city means it.
    impliedWords: city.slug === 'mumbai' ? words(city.name) : [],
    group: `City-wise: ${city.name}`,
  })),
);

/** Every instrument: the catalog's series, then the city-wise prices (catalog order). */
export const instruments: readonly Instrument[] = [...allSeries.map(seriesInstrument), ...cityInstruments];

const byId = new Map(instruments.map((i) => [i.id, i]));
export const findInstrument = (id: string): Instrument | undefined => byId.get(id);

/** The instruments a write to this series or city sheet can move. */
export const instrumentsOfSeries = (seriesId: string): Instrument[] => (findSeries(seriesId) ? [byId.get(seriesId)!] : []);
export const instrumentOfCityPrice = (city: string, grade: string): Instrument | undefined => byId.get(cityInstrumentId(city, grade));
