/**
 * What the methodology pages list (pure): every price of a family as the catalog declares it,
 * grouped by what the prices share, so a page reads "these 17 are assessed this way, at these
 * places" instead of repeating the same facts 17 times. The prose of each page is markdown
 * (src/content/methodology/); the facts come from here, so they cannot drift from the screens.
 */
import { basisFacts, KIND_TEXT, placeOf, publicationText, taxesText, type Basis, type BasisFact, type MethodologyFamily } from './basis.ts';
import { allGrades, cities, cityBasis, customsRateBasis, feedstocks, globalBazaarCountries, historicalSeries, offerBasis, usdInrReferenceBasis } from './catalog.ts';
import { decimalsOf } from './numbers.ts';
import { COMPANY_PRICE_PATH, LIST_LINES, listBasis } from './producerPrices.ts';
import { UNIT_FACTS } from './units.ts';

export interface FamilyPrice {
  /** As the screens name it: "Naphtha · Japan", "Mumbai", "India". */
  readonly name: string;
  readonly basis: Basis;
  /** The screen that shows it. */
  readonly href: string;
}

/** Every price of a family, in catalog order. */
export function familyPrices(family: MethodologyFamily): FamilyPrice[] {
  switch (family) {
    case 'feedstocks':
      return feedstocks.flatMap((f) => f.subMarkets.map((m) => ({ name: `${f.name} · ${m.display}`, basis: m.basis, href: `/crude/${f.slug}?country=${encodeURIComponent(m.call)}` })));
    case 'indian-city-wise':
      return cities.map((c) => ({ name: c.name, basis: cityBasis(c), href: `/indian-bazaar/citywise?city=${c.slug}` }));
    case 'international-offers':
      return globalBazaarCountries.map((c) => ({ name: c.name, basis: offerBasis(c), href: `/global-bazaar/${c.slug}` }));
    case 'historical-grades':
      return historicalSeries.flatMap((h) => allGrades.map((g) => ({ name: `${g.polymer.slug} ${g.grade.name}`, basis: h.basis, href: `/historical-data/${g.polymer.slug}?polymer=${g.grade.key}` })));
    case 'exchange-rates':
      return [
        { name: 'Customs exchange rate, US dollar (CBIC)', basis: customsRateBasis, href: '/indian-bazaar/customExchangeRate' },
        { name: 'US dollar to Indian rupee', basis: usdInrReferenceBasis, href: '/indian-bazaar/customExchangeRate' },
      ];
    case 'producer-prices':
      return LIST_LINES.map((line) => ({ name: `${line.producer.name} ${line.gradeName}`, basis: listBasis(line), href: `${COMPANY_PRICE_PATH}?producer=${line.producer.id}&product=${line.product}` }));
  }
}

/** One line of a group: the prices at one place (names joined when several share it). */
export interface GroupMember {
  readonly names: readonly string[];
  readonly place: string;
  readonly where: string | undefined;
  readonly note: string | undefined;
  readonly href: string;
}

export interface BasisGroup {
  /** What every price of the group shares: the kind, whether it is a range, taxes, unit (with decimals), publication and source. */
  readonly facts: readonly BasisFact[];
  readonly members: readonly GroupMember[];
}

const SHARED: ReadonlySet<BasisFact['key']> = new Set(['price', 'taxes', 'unit', 'published', 'source']);

/** How a range-quoted price is given (the basis' `quotes: 'range'`): said once per group, after what kind of price it is. */
export const QUOTED_AS_RANGE: BasisFact = {
  key: 'quoted',
  label: 'Quoted',
  value: 'as a range, low–high (1,005–1,025); charts, changes and comparisons use its mid',
};

/** The facts a group shares, the unit with its decimals written out, and whether its prices are ranges. */
function sharedFacts(basis: Basis): BasisFact[] {
  const decimals = decimalsOf(basis);
  return basisFacts(basis)
    .filter((f) => SHARED.has(f.key))
    .map((f) => (f.key === 'unit' ? { ...f, value: `${f.value} (${UNIT_FACTS[basis.unit].words}), ${decimals === 0 ? 'whole numbers' : `${decimals} decimals`}` } : f))
    .flatMap((f) => (f.key === 'price' && basis.quotes === 'range' ? [f, QUOTED_AS_RANGE] : [f]));
}

/** The prices grouped by what they share; within a group, one line per place. */
export function groupByBasis(prices: readonly FamilyPrice[]): BasisGroup[] {
  const groups = new Map<string, { facts: BasisFact[]; members: Map<string, { names: string[]; place: string; where: string | undefined; note: string | undefined; href: string }> }>();
  for (const { name, basis, href } of prices) {
    const key = [KIND_TEXT[basis.kind], basis.quotes, taxesText(basis.taxes), basis.unit, decimalsOf(basis), publicationText(basis.publication), basis.source].join('|');
    const group = groups.get(key) ?? { facts: sharedFacts(basis), members: new Map() };
    groups.set(key, group);
    const where = basis.location.detail;
    const memberKey = [placeOf(basis), where ?? '', basis.note ?? ''].join('|');
    const member = group.members.get(memberKey) ?? { names: [], place: placeOf(basis), where, note: basis.note, href };
    member.names.push(name);
    group.members.set(memberKey, member);
  }
  return [...groups.values()].map((g) => ({ facts: g.facts, members: [...g.members.values()] }));
}
