import { describe, expect, it } from 'vitest';
import {
  allGrades,
  cities,
  feedstocks,
  findCity,
  findFeedstock,
  findFeedstockInsensitive,
  findGrade,
  findGradeByKeyOrName,
  findSubMarket,
  futureTrendProducts,
  globalBazaarCountries,
  indianBazaarSections,
  newsTypes,
  polymers,
  services,
  vipDelegationYears,
} from '../../src/lib/catalog.ts';

// The spec's lists, copied verbatim: the catalog must match them exactly and in order.
describe('catalog against the spec', () => {
  it('lists the twelve feedstocks', () => {
    expect(feedstocks.map((f) => f.slug)).toEqual([
      'Crude', 'Naphtha', 'Propylene', 'Ethylene', 'Styrene', 'EDC', 'VCM', 'PTA', 'MEG', 'ACN', 'Butadiene', 'VA',
    ]);
  });

  it('maps each feedstock to its sub-markets, display name to call value', () => {
    const markets = Object.fromEntries(feedstocks.map((f) => [f.slug, f.subMarkets.map((m) => [m.display, m.call])]));
    expect(markets).toEqual({
      Crude: [['Brent', 'brent']],
      Naphtha: [['Japan', 'japan'], ['China', 'china']],
      Propylene: [['Korea', 'korea'], ['China', 'china']],
      Ethylene: [['NEA', 'nea'], ['SEA', 'sea']],
      Styrene: [['China', 'china'], ['Korea', 'korea']],
      VCM: [['SEA', 'sea']],
      PTA: [['China', 'china']],
      MEG: [['China', 'china']],
      EDC: [['SEA', 'sea'], ['CFR SEA', 'cfr_sea'], ['CFR FEA', 'cfr_fea']],
      ACN: [['SEA', 'sea']],
      Butadiene: [['China', 'china']],
      VA: [['China', 'china']],
    });
  });

  it('gives crude US$/bbl, VA RMB/t and every other feedstock US$/t', () => {
    for (const f of feedstocks) {
      const expected = f.slug === 'Crude' ? 'US$/bbl' : f.slug === 'VA' ? 'RMB/t' : 'US$/t';
      expect(f.unit, f.slug).toBe(expected);
    }
  });

  it('lists the future-trend products', () => {
    expect(futureTrendProducts.map((p) => p.slug)).toEqual([
      'PP', 'PE', 'PVC', 'PET', 'PS', 'ABS', 'EVA', 'PC', 'SAN', 'nylon-6-nylon-66', 'PBT', 'POM', 'PMMA', 'bopp', 'polyester',
    ]);
  });

  it('lists the global-bazaar countries', () => {
    expect(globalBazaarCountries.map((c) => c.slug)).toEqual([
      'USA', 'Europe', 'china', 'India', 'Pakistan', 'Nepal', 'Srilanka', 'Bangladesh', 'AsianNation', 'ksa', 'MiddleEast', 'Turkey', 'Egypt',
    ]);
  });

  it('lists the historical polymers and their grades with lower-camel API keys', () => {
    expect(polymers.map((p) => [p.slug, p.grades.map((g) => g.key)])).toEqual([
      ['PP', ['ppRaffia', 'ppFilm', 'ppInjectionMoulding', 'ppIcp', 'ppRandomCopolymer']],
      ['HDPE', ['hdpeRaffia', 'hdpeInjection', 'hdpeBlowMoulding', 'hdpeFilm']],
      ['LLDPE', ['lldpeFilm', 'lldpeRotoMoulding', 'lldpeInjection', 'lldpeLamination']],
      ['LDPE', ['ldpeGeneral', 'ldpeLamination']],
      ['PVC', ['pvcExtrusion', 'pvcInjection']],
    ]);
    expect(allGrades).toHaveLength(17);
  });

  it('lists the indian-bazaar sections, services, VIP years and cities', () => {
    expect(indianBazaarSections.map((s) => s.slug)).toEqual([
      'citywise', 'rateRevision', 'pricePrediction', 'companyPrice', 'customExchangeRate', 'boppFilm', 'importCalculation', 'indianGovernmentPolicies',
    ]);
    expect(services.map((s) => s.slug)).toEqual(['events', 'press-release', 'whatsapp-chatbot']);
    expect(vipDelegationYears).toEqual([2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025]);
    expect(cities.map((c) => c.name)).toEqual(['Ahmedabad', 'Mumbai', 'Delhi', 'Kolkata', 'Bangalore', 'Pune', 'Indore']);
  });

  it('has no duplicate slug within any list', () => {
    for (const list of [feedstocks, futureTrendProducts, globalBazaarCountries, polymers, indianBazaarSections, services, cities]) {
      const slugs = list.map((item) => item.slug);
      expect(new Set(slugs).size).toBe(slugs.length);
    }
    expect(new Set(newsTypes).size).toBe(newsTypes.length);
  });
});

describe('catalog look-ups', () => {
  it('finds slugs exactly and rejects unknown ones', () => {
    expect(findFeedstock('Naphtha')?.name).toBe('Naphtha');
    expect(findFeedstock('naphtha')).toBeUndefined();
    expect(findFeedstock(undefined)).toBeUndefined();
    expect(findFeedstock('Gold')).toBeUndefined();
  });

  it('matches API names and markets case-insensitively', () => {
    const edc = findFeedstockInsensitive('edc');
    expect(edc?.slug).toBe('EDC');
    expect(findSubMarket(edc!, 'CFR_SEA')?.display).toBe('CFR SEA');
    expect(findSubMarket(edc!, 'Japan')).toBeUndefined();
  });

  it('finds grades by API key and cities by any case', () => {
    expect(findGrade('hdpeBlowMoulding')?.grade.name).toBe('Blow moulding');
    expect(findGrade('HDPEBlowMoulding')).toBeUndefined();
    expect(findCity('Mumbai')?.name).toBe('Mumbai');
    expect(findCity('Chennai')).toBeUndefined();
  });
});

describe('grade aliases of the original clients (issue 16)', () => {
  it.each([
    ['ppRaffia', 'ppRaffia'],
    ['PP Raffia', 'ppRaffia'],
    ['pp raffia', 'ppRaffia'],
    [' PP  Raffia ', 'ppRaffia'],
    ['PP-Raffia', 'ppRaffia'],
    ['PP_Raffia', 'ppRaffia'],
    ['HDPE Blow Moulding', 'hdpeBlowMoulding'],
    ['HDPE Blow Molding', 'hdpeBlowMoulding'],
    ['LLDPE roto-molding', 'lldpeRotoMoulding'],
    ['PP Injection moulding', 'ppInjectionMoulding'],
    ['PP ICP', 'ppIcp'],
    ['PP Random copolymer', 'ppRandomCopolymer'],
    ['LDPE General', 'ldpeGeneral'],
    ['PVC Extrusion', 'pvcExtrusion'],
  ])('%s → %s', (text, key) => expect(findGradeByKeyOrName(text)?.grade.key).toBe(key));

  it.each(['PPRAFFIA', 'PP', 'Raffia', 'PP Raffia Film', 'PE Raffia', 'ppraffia', '', '   '])('%j is no grade', (text) =>
    expect(findGradeByKeyOrName(text)).toBeUndefined(),
  );
});
