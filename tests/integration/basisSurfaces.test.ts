/**
 * Issue 20, "every data screen, export and /api/series answer shows the basis fields": the
 * catalog walked price by price against the real store of the test DATA_DIR (demo data).
 * Every data screen rendered through Astro's container, every CSV export, /api/series for every
 * series and the legacy answers: the basis is there, fact by fact, and no number carries float
 * noise. Then a correction made as the desk makes it shows on the screens and in /api/series.
 */
import { getContainerRenderer } from '@astrojs/react/container-renderer';
import type { APIContext, APIRoute } from 'astro';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entitlement } from '../../src/lib/access/policy.ts';
import { checkImport } from '../../src/lib/admin/priceImport.ts';
import { basisFacts, basisFields, basisJson, methodologyPath, METHODOLOGY_FAMILIES, placeOf, type Basis } from '../../src/lib/basis.ts';
import { allGrades, cities, cityBasis, customsRateBasis, feedstocks, globalBazaarCountries, historicalSeries, offerBasis, polymers } from '../../src/lib/catalog.ts';
import { parsePriceCsv } from '../../src/lib/csv.ts';
import { addDays, isoDateOf, toDisplayDate } from '../../src/lib/dates.ts';
import { familyPrices } from '../../src/lib/methodology.ts';
import { decimalsOf, formatPrice, roundTo } from '../../src/lib/numbers.ts';
import { allSeries, feedstockSeriesId, FX_SERIES_ID, seriesBasis } from '../../src/lib/seriesCatalog.ts';
import CrudeIndex from '../../src/pages/crude/index.astro';
import CrudePage from '../../src/pages/crude/[slug].astro';
import GlobalBazaarPage from '../../src/pages/global-bazaar/[slug].astro';
import GraphPage from '../../src/pages/graph/[polymer].astro';
import HistoricalPage from '../../src/pages/historical-data/[slug].astro';
import IndianBazaarPage from '../../src/pages/indian-bazaar/[slug].astro';
import ComparePage from '../../src/pages/compare.astro';
import FutureTrendPage from '../../src/pages/future-trend/[slug].astro';
import MethodologyIndex from '../../src/pages/methodology/index.astro';
import MethodologyPage from '../../src/pages/methodology/[family].astro';
import type { Session } from '../../src/server/auth/session.ts';
import { sitemapUrls } from '../../src/server/sitemap.ts';
import type { Store } from '../../src/server/store/index.ts';
import { sessionOf, userRecordOf } from './helpers.ts';

let container: AstroContainer;
let store: Store;
let api: Record<string, APIRoute>;

beforeAll(async () => {
  store = await (await import('../../src/server/runtime.ts')).store();
  container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
  api = {
    series: (await import('../../src/pages/api/series/index.ts')).GET,
    export: (await import('../../src/pages/api/export/[series].csv.ts')).GET,
    compareExport: (await import('../../src/pages/api/series/export.[format].ts')).GET,
    feedstock: (await import('../../src/pages/api/feedstock.ts')).GET,
    historicaldata: (await import('../../src/pages/api/historicaldata.ts')).GET,
    internationaloffers: (await import('../../src/pages/api/internationaloffers.ts')).GET,
    citywise: (await import('../../src/pages/api/citywise/index.ts')).GET,
  };
});

afterAll(async () => {
  // The runtime's shared store (the files share one module graph): closed so that the next file reopens it.
  await (await import('../../src/server/runtime.ts')).closeStore();
});

// Platinum: the whole archive (the corrections below are years old; a plan's history depth cuts older prices).
const premium: Session = sessionOf(userRecordOf('basis-platinum', { subscribed: true, plan: 'Platinum', expiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString() }), 'full');
const SITE = 'http://127.0.0.1:4321';

async function call(endpoint: string, path: string, params: Record<string, string> = {}, role: Entitlement = 'full'): Promise<Response> {
  const url = new URL(path, SITE);
  const context = { request: new Request(url), url, params, locals: { session: { ...premium, entitlement: role } } };
  return api[endpoint]!(context as unknown as APIContext);
}

async function render(page: Parameters<AstroContainer['renderToResponse']>[0], path: string, params?: Record<string, string>): Promise<string> {
  const response = await container.renderToResponse(page, { request: new Request(new URL(path, SITE)), locals: { session: premium }, partial: false, ...(params ? { params } : {}) });
  expect(response.status, path).toBe(200);
  return response.text();
}

const escapeHtml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The text of an element carrying `data-fact="{key}"` (Astro adds its scoping attributes after). */
const factIn = (html: string, key: string, value: string) => new RegExp(`data-fact="${key}"[^>]*>${escapeRe(escapeHtml(value))}<`).test(html);

/** A BasisLine (src/components/BasisLine.astro) with every fact of `basis` and the methodology link. */
function expectBasisLine(html: string, basis: Basis, where: string, place = placeOf(basis)) {
  expect(html, `${where}: a basis line`).toContain('data-testid="basis"');
  expect(factIn(html, 'basis', place), `${where}: basis ${place}`).toBe(true);
  for (const fact of basisFacts(basis)) {
    if (fact.key === 'basis') continue;
    if (fact.key === 'methodology') expect(html, `${where}: methodology link`).toMatch(new RegExp(`data-fact="methodology"[^>]*href="${escapeRe(fact.value)}"|href="${escapeRe(fact.value)}"[^>]*data-fact="methodology"`));
    else if (fact.key === 'source') expect(factIn(html, 'source', `Source: ${fact.value}`), `${where}: source`).toBe(true);
    else expect(factIn(html, fact.key, fact.value), `${where}: ${fact.key} ${fact.value}`).toBe(true);
  }
}

/** True when no number of the JSON text carries more than `max` decimals (float noise has 10 or more). */
const noNoise = (text: string, max = 4) => !new RegExp(`\\d\\.\\d{${max + 1},}`).test(text);

describe('every data screen shows the basis of its prices', () => {
  it('the feedstock table: each market’s basis beside its price', async () => {
    const html = await render(CrudeIndex, '/crude');
    for (const f of feedstocks) for (const m of f.subMarkets) expect(html, `${f.slug} ${m.call}`).toContain(escapeHtml(placeOf(m.basis)));
    expect(html).toContain(`href="${methodologyPath('feedstocks')}"`);
  });

  it.each(feedstocks.flatMap((f) => f.subMarkets.map((m) => [f.slug, m.call, m.basis] as const)))('/crude/%s?country=%s', async (slug, call, basis) => {
    const html = await render(CrudePage, `/crude/${slug}?country=${encodeURIComponent(call)}`, { slug });
    expectBasisLine(html, basis, `/crude/${slug}`);
    if (basis.note) expect(html).toContain(escapeHtml(basis.note));
  });

  it.each(allGrades.map((g) => [g.polymer.slug, g.grade.key] as const))('/historical-data/%s?polymer=%s: both series', async (polymer, grade) => {
    const html = await render(HistoricalPage, `/historical-data/${polymer}?polymer=${grade}`, { slug: polymer });
    for (const h of historicalSeries) expectBasisLine(html, h.basis, `${grade} ${h.name}`);
  });

  it.each(polymers.flatMap((p) => historicalSeries.map((h) => [p.slug, h.name, h.basis] as const)))('/graph/%s?market=%s', async (polymer, market, basis) => {
    const html = await render(GraphPage, `/graph/${polymer}?market=${encodeURIComponent(market)}`, { polymer });
    expectBasisLine(html, basis, `/graph/${polymer}`);
  });

  it.each(cities.map((c) => [c.slug, c] as const))('/indian-bazaar/citywise?city=%s: the sheet and the city-against-city card', async (slug, city) => {
    const html = await render(IndianBazaarPage, `/indian-bazaar/citywise?city=${slug}`, { slug: 'citywise' });
    expectBasisLine(html, cityBasis(city), slug);
    // The chart of two cities names both.
    expect(html).toMatch(new RegExp(`data-fact="basis"[^>]*>ex-godown ${escapeRe(city.name)} and `));
  });

  it.each(globalBazaarCountries.map((c) => [c.slug, c] as const))('/global-bazaar/%s', async (slug, country) => {
    const html = await render(GlobalBazaarPage, `/global-bazaar/${slug}`, { slug });
    expectBasisLine(html, offerBasis(country), slug);
  });

  it('the exchange rate, the landed-cost calculator and the producer price sections', async () => {
    // The notified customs rate and, apart from it, the daily reference rate: each with its basis.
    const rates = await render(IndianBazaarPage, '/indian-bazaar/customExchangeRate', { slug: 'customExchangeRate' });
    expectBasisLine(rates, customsRateBasis, 'customExchangeRate (customs)');
    expectBasisLine(rates, seriesBasis(FX_SERIES_ID), 'customExchangeRate (reference)');
    const calculator = await render(IndianBazaarPage, '/indian-bazaar/importCalculation?grade=ppRaffia', { slug: 'importCalculation' });
    expect(calculator).toContain('CIF Nhava Sheva, US$/t');
    expect(calculator).toMatch(/the customs rate of CBIC notification No\. \d+\/\d{4}-Customs \(N\.T\.\), in force from/);
    expect(calculator).toContain(`href="${methodologyPath('exchange-rates')}"`);
    for (const slug of ['companyPrice', 'rateRevision']) expect(await render(IndianBazaarPage, `/indian-bazaar/${slug}`, { slug })).toContain(`href="${methodologyPath('producer-prices')}"`);
  });

  it('the outlook pages’ trend card', async () => {
    expectBasisLine(await render(FutureTrendPage, '/future-trend/PP', { slug: 'PP' }), seriesBasis('historical.ppRaffia.cif-ns'), '/future-trend/PP');
  });

  it('the comparison: the legend and the figures name each series’ basis', async () => {
    const ids = ['feedstock.edc.sea', 'feedstock.edc.cfr-sea', 'historical.ppRaffia.mumbai', FX_SERIES_ID];
    const html = await render(ComparePage, `/compare?s=${ids.join(',')}`);
    const legend = /data-testid="compare-series"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? '';
    expect(legend).toContain('FOB South-East Asia, US$/t');
    expect(legend).toContain('CFR South-East Asia, US$/t');
    expect(legend).toContain('ex-works Mumbai, incl. 18% GST, ₹/kg');
    expect(legend).toContain('FBIL reference rate, ₹/US$');
    expect(legend).toContain(`href="${methodologyPath('feedstocks')}"`);
  });
});

describe('every /api/series answer carries the basis of each series, without float noise', () => {
  const batches: string[][] = [];
  for (let i = 0; i < allSeries.length; i += 6) batches.push(allSeries.slice(i, i + 6).map((s) => s.id));
  const today = isoDateOf(new Date());

  it.each(batches.map((ids, i) => [i + 1, ids] as const))('batch %i', async (_n, ids) => {
    const response = await call('series', `/api/series?ids=${ids.join(',')}&from=${addDays(today, -400)}&to=${today}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const answer = JSON.parse(text) as { series: { id: string; unit: string; decimals: number; basis: unknown; values: number[]; stats: { last: { value: number } } | null; corrections: unknown[] }[] };
    for (const line of answer.series) {
      const basis = seriesBasis(line.id);
      expect(line.basis, line.id).toEqual(basisJson(basis));
      expect(line.unit).toBe(basis.unit);
      expect(line.decimals).toBe(decimalsOf(basis));
      expect(Array.isArray(line.corrections)).toBe(true);
      for (const value of line.values) expect(roundTo(value, line.decimals), line.id).toBe(value);
      if (line.stats) expect(roundTo(line.stats.last.value, line.decimals)).toBe(line.stats.last.value);
    }
    expect(noNoise(text)).toBe(true);
  });
});

describe('every export carries the basis in its header rows', () => {
  it.each(allSeries.map((s) => [s.id, s] as const))('/api/export/%s.csv', async (id, series) => {
    const response = await call('export', `/api/export/${id}.csv`, { series: id });
    const text = await response.text();
    const { headerRows, rows, errors } = parsePriceCsv(text);
    expect(errors).toEqual([]);
    expect(headerRows[1]!.fields).toEqual({ series: id, ...Object.fromEntries(basisFields(seriesBasis(series), series.label, SITE)) });
    const decimals = decimalsOf(seriesBasis(series));
    for (const row of rows) expect(roundTo(row.value, decimals), `${id} ${row.date}`).toBe(row.value);
    expect(checkImport(text, isoDateOf(new Date())).ok).toBe(true);
  });

  it('the comparison’s CSV: one basis row per line, the converted ones saying how', async () => {
    const response = await call('compareExport', `/api/series/export.csv?ids=feedstock.naphtha.japan,historical.ppRaffia.mumbai&unit=inr_kg`, { format: 'csv' });
    const { headerRows } = parsePriceCsv(await response.text());
    expect(headerRows.map((r) => r.fields?.['series'])).toEqual([undefined, 'feedstock.naphtha.japan.inr_kg', 'historical.ppRaffia.mumbai']);
    expect(headerRows[1]!.fields).toMatchObject({ basis: 'CFR Japan', unit: '₹/kg', computed: '₹/kg = US$/t × ₹/US$ of the day ÷ 1000' });
    expect(headerRows[2]!.fields).toMatchObject({ basis: 'ex-works Mumbai', unit: '₹/kg', taxes: 'incl. 18% GST' });
  });
});

describe('the legacy answers keep their shapes, without float noise', () => {
  it('feedstock, historical data, city-wise and offers', async () => {
    for (const f of feedstocks) {
      for (const m of f.subMarkets) {
        const text = await (await call('feedstock', `/api/feedstock?name=${f.slug}&country=${m.call}`)).text();
        const { data } = JSON.parse(text) as { data: { key: string[]; value: number[] } };
        for (const value of data.value) expect(roundTo(value, decimalsOf(m.basis)), feedstockSeriesId(f.slug, m.call)).toBe(value);
      }
    }
    for (const g of allGrades) expect(noNoise(await (await call('historicaldata', `/api/historicaldata?polymer=${g.grade.key}`)).text(), 2)).toBe(true);
    expect(noNoise(await (await call('citywise', '/api/citywise')).text(), 2)).toBe(true);
    for (const c of globalBazaarCountries) expect(noNoise(await (await call('internationaloffers', `/api/internationaloffers?country=${c.slug}`)).text(), 0)).toBe(true);
  });
});

describe('a corrected price shows when and what it was', () => {
  // A day of the demo history no other suite reads.
  const id = 'feedstock.acn.sea';
  const basis = seriesBasis(id);
  let date = '';
  let before = 0;
  let after = 0;

  beforeAll(async () => {
    const point = (await store.points(id, { from: '2019-06-03', to: '2019-06-30' }))[0]!;
    date = point.date;
    before = point.value;
    after = roundTo(before + 12.25, 2);
    const written = await store.adminSetPoint({ seriesId: id, date, value: after, expected: before, actor: { uid: 'basis-desk', email: 'desk@polyindex.test' }, now: new Date() });
    expect(written.kind).toBe('written');
  });

  it('in /api/series meta, for the range that holds the day', async () => {
    const answer = (await (await call('series', `/api/series?ids=${id}&from=2019-06-01&to=2019-06-30`)).json()) as { series: { corrections: unknown[] }[] };
    expect(answer.series[0]!.corrections).toEqual([
      { date, value: after, previous: before, firstPublished: before, correctedOn: isoDateOf(new Date()), correctedAt: expect.any(String), times: 1 },
    ]);
    const elsewhere = (await (await call('series', `/api/series?ids=${id}&from=2019-07-01&to=2019-07-31`)).json()) as { series: { corrections: unknown[] }[] };
    expect(elsewhere.series[0]!.corrections).toEqual([]);
  });

  it('under the chart of its year, with the day it was corrected and the value before', async () => {
    const html = await render(CrudePage, '/crude/ACN?country=sea&year=2019', { slug: 'ACN' });
    const list = /data-testid="corrections"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? '';
    expect(list).toContain(`${toDisplayDate(date)}: ${formatPrice(after, basis)} US$/t, corrected on ${toDisplayDate(isoDateOf(new Date()))}, was ${formatPrice(before, basis)}`);
    expect(await render(CrudePage, '/crude/ACN?country=sea&year=2020', { slug: 'ACN' })).not.toContain('data-testid="corrections"');
  });

  it('in the comparison’s figures', async () => {
    const html = await render(ComparePage, `/compare?s=${id}&range=custom&from=2019-06-01&to=2019-06-30`);
    expect(html).toContain(`was ${formatPrice(before, basis)}`);
  });

  it('in a city sheet’s table, cell by cell', async () => {
    const mumbai = cities.find((c) => c.slug === 'mumbai')!;
    const sheet = await store.latestCitySheet('mumbai');
    const row = sheet.find((r) => r.grade === 'ppRaffia')!;
    const corrected = roundTo(row.price + 0.5, 2);
    const written = await store.adminSetCityPrice({ city: 'mumbai', date: row.date, polymerType: 'PP', grade: 'ppRaffia', price: corrected, expected: row.price, actor: { uid: 'basis-desk', email: null }, now: new Date() });
    expect(written.kind).toBe('written');
    const html = await render(IndianBazaarPage, `/indian-bazaar/citywise?city=mumbai&date=${row.date}&month=${Number(row.date.slice(5, 7))}&year=${row.date.slice(0, 4)}`, { slug: 'citywise' });
    const quoting = cityBasis(mumbai);
    expect(html).toMatch(new RegExp(`${escapeRe(formatPrice(corrected, quoting))}\\s*<span class="corrected"[^>]*>corrected on ${escapeRe(toDisplayDate(isoDateOf(new Date())))}, was ${escapeRe(formatPrice(row.price, quoting))}</span>`));
    // Put the demo sheet back (a second correction, as the desk would make it).
    await store.adminSetCityPrice({ city: 'mumbai', date: row.date, polymerType: 'PP', grade: 'ppRaffia', price: row.price, expected: corrected, actor: { uid: 'basis-desk', email: null }, now: new Date() });
  });
});

describe('the methodology pages', () => {
  it('overview: every family linked, the words of a basis', async () => {
    const html = await render(MethodologyIndex, '/methodology');
    for (const f of METHODOLOGY_FAMILIES) expect(html).toContain(`href="${methodologyPath(f.slug)}"`);
    expect(html).toContain('<title>PolyIndex | Methodology</title>');
    for (const word of ['ex-godown', 'CIF', '₹/US$', 'exchange settlement price']) expect(html).toContain(escapeHtml(word));
  });

  it.each(METHODOLOGY_FAMILIES.map((f) => [f.slug, f.name] as const))('/methodology/%s lists every price of its family with its basis', async (slug, name) => {
    // A prerendered page's props type is `never` (getStaticPaths): the container renders it all the same.
    const html = await render(MethodologyPage as unknown as Parameters<AstroContainer['renderToResponse']>[0], methodologyPath(slug), { family: slug });
    expect(html).toContain(`<title>PolyIndex | Methodology: ${escapeHtml(name)}</title>`);
    expect(html).toMatch(/<meta name="description" content="[^"]{50,160}">/);
    for (const price of familyPrices(slug)) {
      expect(html, price.name).toContain(escapeHtml(price.name));
      expect(factIn(html, 'basis', placeOf(price.basis)), `${price.name}: ${placeOf(price.basis)}`).toBe(true);
      for (const fact of basisFacts(price.basis).filter((f) => f.key === 'price' || f.key === 'taxes' || f.key === 'source')) expect(factIn(html, fact.key, fact.value), `${price.name} ${fact.key}`).toBe(true);
    }
    for (const heading of ['Corrections']) expect(html).toContain(`>${heading}</h2>`);
  });

  it('are in the sitemap', async () => {
    const locs = (await sitemapUrls(new URL(SITE))).map((u) => u.loc);
    for (const path of ['/methodology', ...METHODOLOGY_FAMILIES.map((f) => methodologyPath(f.slug))]) expect(locs).toContain(`${SITE}${path}/`);
  });
});
