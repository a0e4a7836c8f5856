/**
 * Issue 20: the catalog walked price by price. No series, city sheet, offer market or delivery
 * instrument without a basis; every unit spelled one way, in the data and in the source; two
 * prices that are not the same price say how they differ; the short and long forms read as a
 * trader writes them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  basisDifferences,
  basisFacts,
  basisFields,
  basisJson,
  basisKey,
  basisShort,
  DELIVERY_TERMS,
  METHODOLOGY_FAMILIES,
  PRICE_KINDS,
  PUBLICATION_FREQUENCIES,
  type Basis,
} from '../../src/lib/basis.ts';
import { cities, cityBasis, feedstocks, globalBazaarCountries, historicalSeries, offerBasis } from '../../src/lib/catalog.ts';
import { compareUnitLabels } from '../../src/lib/compare/units.ts';
import { basisRow } from '../../src/lib/csv.ts';
import { instruments } from '../../src/lib/delivery/instruments.ts';
import { familyPrices, groupByBasis, QUOTED_AS_RANGE } from '../../src/lib/methodology.ts';
import { decimalsOf } from '../../src/lib/numbers.ts';
import { UNIT_RANGES } from '../../src/lib/priceRanges.ts';
import { allSeries, feedstockSeriesId, findSeries, FX_SERIES_ID, historicalSeriesId, seriesBasis } from '../../src/lib/seriesCatalog.ts';
import { PRICE_UNITS, UNIT_FACTS, readUnit } from '../../src/lib/units.ts';
import { findListLine, LIST_LINES, listBasis, listPlace } from '../../src/lib/producerPrices.ts';

const findListLineOrThrow = (id: string) => findListLine(id) ?? expect.unreachable(`no list line ${id}`);

/** Every price the catalog names, with its basis and what it is. */
const everyPrice: readonly { name: string; basis: Basis; product: string }[] = [
  ...allSeries.map((s) => ({ name: s.id, basis: seriesBasis(s), product: s.family === 'fx' ? 'USDINR' : s.product })),
  ...cities.map((c) => ({ name: `city:${c.slug}`, basis: cityBasis(c), product: 'citywise' })),
  ...globalBazaarCountries.map((c) => ({ name: `offers:${c.slug}`, basis: offerBasis(c), product: 'offers' })),
];

describe('every price has its basis', () => {
  it.each(everyPrice.map((p) => [p.name, p.basis] as const))('%s: every field filled, from the allowed words', (_name, basis) => {
    expect(basis.location.name.trim()).not.toBe('');
    expect(['port', 'city', 'region', 'country', 'exchange']).toContain(basis.location.kind);
    if (basis.terms === null) expect(basis.benchmark, 'a price without delivery terms names its benchmark').toBeTruthy();
    else expect(DELIVERY_TERMS).toContain(basis.terms);
    expect(['included', 'excluded', 'not-applicable']).toContain(basis.taxes.treatment);
    expect(basis.taxes.taxes.trim()).not.toBe('');
    expect(PRICE_UNITS).toContain(basis.unit);
    expect(PRICE_KINDS).toContain(basis.kind);
    expect(PUBLICATION_FREQUENCIES).toContain(basis.publication.frequency);
    expect(basis.publication.byIst).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
    expect(basis.publication.days.trim()).not.toBe('');
    expect(basis.source.trim()).not.toBe('');
    expect(METHODOLOGY_FAMILIES.map((f) => f.slug)).toContain(basis.methodology);
    expect(['single', 'range']).toContain(basis.quotes);
    const decimals = decimalsOf(basis);
    expect(decimals).toBeGreaterThanOrEqual(0);
    expect(decimals, 'a basis may quote fewer decimals than its unit, never more').toBeLessThanOrEqual(UNIT_FACTS[basis.unit].decimals);
  });

  it('gives each series the unit, currency and frequency of its basis (one owner)', () => {
    expect(allSeries.length).toBe(feedstocks.flatMap((f) => f.subMarkets).length + 17 * historicalSeries.length + 1);
    for (const s of allSeries) {
      const basis = seriesBasis(s);
      expect(s.unit, s.id).toBe(basis.unit);
      expect(s.currency, s.id).toBe(UNIT_FACTS[basis.unit].currency);
      expect(s.frequency, s.id).toBe(basis.publication.frequency);
      expect(seriesBasis(s.id)).toBe(basis);
    }
    expect(() => seriesBasis('no.such.series')).toThrow(/no basis/);
  });

  it('gives every delivery instrument (series and city prices) the basis of the price it sends', () => {
    for (const instrument of instruments) {
      const expected = instrument.source.kind === 'series' ? seriesBasis(instrument.source.seriesId) : cityBasis(cities.find((c) => c.slug === (instrument.source as { city: string }).city)!);
      expect(instrument.basis, instrument.id).toEqual(expected);
      // The messages write the one spelling too.
      expect(instrument.unit, instrument.id).toBe(instrument.basis.unit);
    }
  });

  it('puts each family of prices on its methodology page', () => {
    for (const f of feedstocks) for (const m of f.subMarkets) expect(m.basis.methodology).toBe('feedstocks');
    for (const c of cities) expect(cityBasis(c).methodology).toBe('indian-city-wise');
    for (const c of globalBazaarCountries) expect(offerBasis(c).methodology).toBe('international-offers');
    for (const h of historicalSeries) expect(h.basis.methodology).toBe('historical-grades');
    expect(seriesBasis(FX_SERIES_ID).methodology).toBe('exchange-rates');
    // And each page lists exactly the prices of its family.
    expect(familyPrices('feedstocks').length).toBe(allSeries.filter((s) => s.family === 'feedstock').length);
    expect(familyPrices('historical-grades').length).toBe(allSeries.filter((s) => s.family === 'historical').length);
    expect(familyPrices('indian-city-wise').length).toBe(cities.length);
    expect(familyPrices('international-offers').length).toBe(globalBazaarCountries.length);
    expect(familyPrices('producer-prices').length).toBe(LIST_LINES.length);
    for (const price of familyPrices('producer-prices')) expect([price.basis.methodology, price.basis.kind]).toEqual(['producer-prices', 'list']);
  });
});

describe('one spelling of every unit', () => {
  it('uses only the one spelling everywhere a unit is data', () => {
    const used = [
      ...feedstocks.map((f) => f.unit),
      ...everyPrice.map((p) => p.basis.unit),
      ...allSeries.map((s) => s.unit),
      ...instruments.map((i) => i.basis.unit),
      ...Object.keys(UNIT_RANGES),
      compareUnitLabels.inr_kg,
      compareUnitLabels.usd_t,
    ];
    for (const unit of used) expect(PRICE_UNITS, unit).toContain(unit);
    expect(Object.keys(UNIT_RANGES).toSorted()).toEqual([...PRICE_UNITS].toSorted());
  });

  it('reads an old spelling back as the one spelling, and nothing else as a unit', () => {
    expect(readUnit('US$/MT')).toBe('US$/t');
    expect(readUnit('us$/mt')).toBe('US$/t');
    expect(readUnit('Rs/Kg')).toBe('₹/kg');
    expect(readUnit('INR/USD')).toBe('₹/US$');
    expect(readUnit('USD/bbl')).toBe('US$/bbl');
    expect(readUnit('RMB/Mt')).toBe('RMB/t');
    expect(readUnit(' ₹/kg ')).toBe('₹/kg');
    expect(readUnit('?/kg')).toBeNull();
    expect(readUnit('kg')).toBeNull();
  });

  /** The spellings before issue 20: written nowhere in the code but the readers of old files (the messages write the one spelling too). */
  const OLD = /US\$\/MT|US\$\/Mt|USD\/bbl|Rs\/Kg|Rs\/kg|INR\/USD|RMB\/Mt|INR per USD/;
  const ALLOWED = new Set(['lib/units.ts']);
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|tsx|astro)$/.test(e.name) ? [join(dir, e.name)] : []));

  it('writes no old spelling in the code (the news posts are the desk’s prose, not data)', () => {
    const src = resolve('src');
    const offending = sources(src)
      .filter((file) => !ALLOWED.has(relative(src, file)) && !relative(src, file).startsWith('content/'))
      .flatMap((file) => readFileSync(file, 'utf8').split('\n').map((line, i) => [relative(src, file), i + 1, line] as const))
      .filter(([, , line]) => OLD.test(line))
      .map(([file, n, line]) => `${file}:${n}: ${line.trim()}`);
    expect(offending).toEqual([]);
  });
});

describe('two prices that differ say how', () => {
  it('never gives two series of one product the same basis', () => {
    const seen = new Map<string, string>();
    for (const p of everyPrice.filter((x) => x.product !== 'citywise' && x.product !== 'offers')) {
      const key = `${p.product}|${basisKey(p.basis)}`;
      expect(seen.get(key), `${p.name} and ${seen.get(key)} are the same price`).toBeUndefined();
      seen.set(key, p.name);
    }
  });

  it('tells the two Ethylene dichloride South-East Asia series apart', () => {
    const fob = seriesBasis(feedstockSeriesId('EDC', 'sea'));
    const cfr = seriesBasis(feedstockSeriesId('EDC', 'cfr_sea'));
    expect(basisShort(fob)).toBe('FOB South-East Asia, US$/t');
    expect(basisShort(cfr)).toBe('CFR South-East Asia, US$/t');
    expect(basisDifferences(fob, cfr)).toEqual(['Basis: FOB South-East Asia, not CFR South-East Asia']);
    expect(fob.note).toMatch(/CFR SEA/);
    expect(cfr.note).toMatch(/FOB/);
  });

  it('says naphtha Japan is delivered to Japan (C&F)', () => {
    const japan = seriesBasis(feedstockSeriesId('Naphtha', 'japan'));
    expect(basisShort(japan)).toBe('CFR Japan, US$/t');
    expect(japan.location.detail).toMatch(/C&F Japan/);
  });

  it('tells the producers’ Mumbai price from the traders’ Mumbai sheet, and the CIF assessment from the India offers', () => {
    const exWorks = seriesBasis(historicalSeriesId('ppRaffia', 'Mumbai'));
    const exGodown = cityBasis(cities.find((c) => c.slug === 'mumbai')!);
    expect(basisDifferences(exWorks, exGodown)).toEqual(['Basis: ex-works Mumbai, not ex-godown Mumbai', 'Published: weekly (Mondays) by 18:00 IST (after the producers’ weekly list-price revisions), not weekly (Mondays) by 18:00 IST']);
    expect(exWorks.note).toMatch(/ex-godown/);
    expect(exGodown.note).toMatch(/ex-works/);
    const cif = seriesBasis(historicalSeriesId('ppRaffia', 'CIF NS'));
    const offers = offerBasis(globalBazaarCountries.find((c) => c.slug === 'India')!);
    expect(basisDifferences(cif, offers)).toContain('Price: desk assessment of traded levels, not offers (sellers’ asking prices)');
  });
});

describe('the words of a basis', () => {
  it('writes the short form a message carries', () => {
    expect(basisShort(seriesBasis(feedstockSeriesId('Crude', 'brent')))).toBe('ICE Brent futures settlement, US$/bbl');
    expect(basisShort(seriesBasis(historicalSeriesId('ppRaffia', 'Mumbai')))).toBe('ex-works Mumbai, incl. 18% GST, ₹/kg');
    expect(basisShort(seriesBasis(historicalSeriesId('ppRaffia', 'CIF NS')))).toBe('CIF Nhava Sheva, US$/t');
    expect(basisShort(seriesBasis(FX_SERIES_ID))).toBe('FBIL reference rate, ₹/US$');
    expect(basisShort(seriesBasis(feedstockSeriesId('VA', 'china')))).toBe('ex-tank East China, incl. 13% Chinese VAT, RMB/t');
    expect(basisShort(cityBasis(cities[0]!))).toBe('ex-godown Ahmedabad, incl. 18% GST, ₹/kg');
    expect(basisShort(offerBasis(globalBazaarCountries.find((c) => c.slug === 'India')!))).toBe('CIF Nhava Sheva offers, US$/t');
    expect(basisShort(offerBasis(globalBazaarCountries.find((c) => c.slug === 'ksa')!))).toBe('FOB Jubail offers, US$/t');
  });

  /** A place's name that repeats what its terms say: "ex-depot Mumbai depot", "ex-works Jamnagar works", "FOB Jubail port". */
  const SAID_TWICE = /\bex-depot\b.*\bdepots?\b|\bex-works\b.*\b(works|plant)\b|\bex-godown\b.*\bgodowns?\b|\bex-tank\b.*\btanks?\b|\b(FOB|CFR|CIF|FAS)\b \S+ port\b/;

  it.each([...everyPrice.map((p) => [p.name, p.basis] as const), ...LIST_LINES.map((l) => [l.id, listBasis(l)] as const)])(
    '%s: its place reads as a trader says it, the terms not said again by the name',
    (_name, basis) => {
      for (const text of [basisShort(basis), basisFacts(basis).find((f) => f.key === 'basis')!.value, basisJson(basis).short]) expect(text).not.toMatch(SAID_TWICE);
    },
  );

  it('writes a producer’s depot as "ex-depot" and the city, on every surface that names a list line', () => {
    const depots = LIST_LINES.filter((l) => l.location.terms === 'ex-depot');
    expect(new Set(depots.map((l) => listPlace(l.location)))).toEqual(new Set(['ex-depot Mumbai', 'ex-depot Delhi', 'ex-depot Kolkata']));
    for (const line of LIST_LINES) {
      expect(listPlace(line.location)).not.toMatch(SAID_TWICE);
      // The screens, the admin, the bot and the messages write listPlace; the basis' short form says the same place.
      expect(basisShort(listBasis(line)).startsWith(`${listPlace(line.location)} list price, `)).toBe(true);
    }
    expect(basisShort(listBasis(findListLineOrThrow('reliance.ppRaffia.mumbai-depot')))).toBe('ex-depot Mumbai list price, excl. 18% GST, ₹/kg');
  });

  it('lists the facts in one order, and the API form carries every one', () => {
    const basis = seriesBasis(feedstockSeriesId('Naphtha', 'japan'));
    expect(basisFacts(basis).map((f) => [f.key, f.value])).toEqual([
      ['basis', 'CFR Japan'],
      ['price', 'desk assessment of traded levels'],
      ['taxes', 'excl. import duties and taxes'],
      ['unit', 'US$/t'],
      ['published', 'daily (Mon–Fri) by 17:30 IST (after the Singapore close at 14:00 IST)'],
      ['source', 'PolyIndex price desk'],
      ['methodology', '/methodology/feedstocks'],
    ]);
    expect(basisJson(basis)).toMatchObject({ location: 'Japan', terms: 'CFR', unit: 'US$/t', currency: 'USD', decimals: 2, kind: 'assessment', frequency: 'daily', quotes: 'single', methodology: '/methodology/feedstocks', short: 'CFR Japan, US$/t' });
  });

  it.each(everyPrice.map((p) => [p.name, p.basis] as const))('%s: its facts fit in one CSV header row', (name, basis) => {
    for (const f of basisFacts(basis)) expect(f.value, f.key).not.toMatch(/[,;\n"]/);
    const series = findSeries(name);
    expect(() => basisRow(name.replace(':', '.'), basisFields(basis, series?.label ?? name, 'https://polyindex.test'))).not.toThrow();
  });

  it('groups a family’s prices by what they share for its methodology page', () => {
    const groups = groupByBasis(familyPrices('historical-grades'));
    expect(groups).toHaveLength(2);
    expect(groups[0]!.members).toHaveLength(1);
    expect(groups[0]!.members[0]!.names).toHaveLength(17);
    expect(groups[0]!.facts.find((f) => f.key === 'unit')?.value).toBe('₹/kg (Indian rupees per kilogram), 2 decimals');
    expect(groups[1]!.facts.find((f) => f.key === 'unit')?.value).toBe('US$/t (US dollars per metric tonne), whole numbers');
    const feedstockGroups = groupByBasis(familyPrices('feedstocks'));
    // Brent (a settlement) and VA (RMB, VAT included) stand apart from the Asian US$ assessments.
    expect(feedstockGroups).toHaveLength(3);
    expect(feedstockGroups.flatMap((g) => g.members.flatMap((m) => m.names))).toHaveLength(familyPrices('feedstocks').length);
    // Ranges are said once per group, where the basis quotes them: offers, city-wise, CIF Nhava Sheva.
    const quoted = (family: Parameters<typeof familyPrices>[0]) => groupByBasis(familyPrices(family)).map((g) => g.facts.find((f) => f.key === 'quoted')?.value ?? null);
    expect(quoted('international-offers')).toEqual([QUOTED_AS_RANGE.value]);
    expect(quoted('indian-city-wise')).toEqual([QUOTED_AS_RANGE.value]);
    expect(quoted('historical-grades')).toEqual([null, QUOTED_AS_RANGE.value]);
    expect(feedstockGroups.every((g) => !g.facts.some((f) => f.key === 'quoted'))).toBe(true);
    expect(groupByBasis(familyPrices('international-offers'))[0]!.facts.map((f) => f.key)).toEqual(['price', 'quoted', 'taxes', 'unit', 'published', 'source']);
  });
});
