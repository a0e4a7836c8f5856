// Issue 20: the demo news posts quote the data as it was on their dates. Every price-like
// number a seed post writes as fixed text (outside a `{{…}}` template, src/lib/newsQuotes.ts)
// must be on the list below: a number that is not a price the data holds, with why. Every
// other fixed price fails the test: a price the data holds is written as a template.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedIdOf } from '../../src/server/posts/seed.ts';

const NEWS = resolve('src/content/news');
const files = (readdirSync(NEWS, { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).toSorted();

/**
 * A price as a post writes it: a currency (₹, Rs, INR, US$, USD, $, RMB), a number or a range,
 * and a price unit (/kg, /t, /MT, /bbl, per tonne …). Templates are taken out first.
 */
const PRICE = /(?:₹|\bRs\.?|\bINR|US\$|\bUSD|\$|\bRMB)\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:–|-|to|and)\s?(?:₹|Rs\.?|US\$|USD|\$)?\s?\d[\d,]*(?:\.\d+)?)?\s?(?:\/\s?|per\s)(?:kg|t|MT|mt|tonne|ton|bbl|barrel)\b/g;

/**
 * The rupee's dollar rate as a post writes it ("the rupee is at about 88.6", "USD/INR | 88.9"): a
 * rate from 50 to 99 a few words after the rupee is named (the data's `fx.usdinr` line).
 */
const RUPEE_RATE = /(?:\brupee\b|\bUSD\/INR\b|US\$\/INR)[^.\n\d]{0,30}?(?<![\d.,])[5-9]\d(?:\.\d{1,2})?(?![\d,]|\s?(?:%|\/|paise))/gi;

/** Every fixed price in a post's text (front matter included: titles and summaries are read too). */
const fixedPrices = (text: string): string[] => {
  const fixed = text.replace(/\{\{[^}]*\}\}/g, '');
  return [...[...fixed.matchAll(PRICE)].map((m) => m[0]), ...[...fixed.matchAll(RUPEE_RATE)].map((m) => m[0])];
};

/** Fixed numbers that are not prices the data holds, post by post, with why. */
const NOT_DATA: Readonly<Record<string, { readonly why: string; readonly numbers: readonly string[] }>> = {
  '2026-09-25-gst-on-polymers-itc-checklist': { why: 'a worked GST example on a round price', numbers: ['Rs 100/kg'] },
  '2026-11-21-how-to-read-cif-nhava-sheva-landed-cost': { why: 'the calculator’s port and handling estimate, not a market price', numbers: ['₹1,500/t'] },
  '2025-11-25-bopp-film-export-enquiries': { why: 'BOPP film prices and their discount to other origins: no line of the data prices BOPP film', numbers: ['US$ 30–50/t', 'Rs 139–141/kg', 'Rs 1/kg'] },
  '2026-11-16-reliance-price-list-week-47': { why: 'terms of trade: the freight differential of other depots and cash discounts, not list prices', numbers: ['Rs 0.50–1.50/kg', 'Rs 0.25–0.50/kg'] },
  '2026-10-01-bis-qco-polymer-compliance-update': { why: 'an estimated premium for licensed material', numbers: ['US$ 10–30/t'] },
  '2026-06-25-eva-outlook-footwear': { why: 'EVA offers: no line of the data prices EVA', numbers: ['US$ 1,280–1,320/t'] },
  '2026-11-03-eva-outlook-solar-film-demand': { why: 'EVA prices and the desk’s calls for them: no line of the data prices EVA', numbers: ['US$ 1,420–1,470/t', 'US$ 1,450–1,500/t', 'Rs 146/kg', 'Rs 143–145/kg', 'Rs 152/kg', 'Rs 151–153/kg'] },
  '2025-06-11-pc-outlook-h2-2025': { why: 'a discount buyers ask for, not a price', numbers: ['Rs 3/kg'] },
  '2026-03-03-pc-outlook-electrical-season': { why: 'a forecast move and polycarbonate offers (no line of the data prices PC)', numbers: ['Rs 3–4/kg', 'US$ 1,820–1,880/t'] },
  '2026-10-19-pc-outlook-chinese-capacity': { why: 'forecast moves and polycarbonate offers (no line of the data prices PC)', numbers: ['Rs 4–6/kg', 'US$ 1,720–1,780/t', 'Rs 1–2/kg'] },
  '2025-08-13-pmma-outlook-2025': { why: 'MMA and PMMA prices (no line of the data prices them) and a hypothetical rupee move', numbers: ['US$ 1,350/t', 'US$ 1,900–1,980/t', 'US$ 1,300/t', 'Rs 1.50/kg'] },
  '2026-06-09-pmma-outlook-lighting-signage': { why: 'MMA and PMMA prices: no line of the data prices them', numbers: ['US$ 1,400/t', 'US$ 1,950–2,020/t'] },
  '2026-11-02-pmma-outlook-mma-costs': { why: 'a forecast move, PMMA and MMA prices: no line of the data prices them', numbers: ['Rs 4–6/kg', 'Rs 218/kg', 'US$ 1,880–1,950/t', 'US$ 1,320/t'] },
  '2025-07-30-pom-outlook-auto-parts': { why: 'a forecast move and methanol (no line of the data prices methanol)', numbers: ['Rs 2/kg', 'US$ 290/t'] },
  '2026-04-09-pom-outlook-import-sources': { why: 'methanol: no line of the data prices it', numbers: ['US$ 300/t'] },
  '2026-10-26-pom-outlook-methanol': { why: 'a forecast move, POM and methanol prices: no line of the data prices them', numbers: ['Rs 4–6/kg', 'Rs 176/kg', 'US$ 1,520–1,600/t', 'US$ 285/t'] },
  '2025-10-15-nylon-outlook-textile-yarn': { why: 'a forecast move and caprolactam (no line of the data prices it)', numbers: ['Rs 3–5/kg', 'US$ 1,330/t'] },
  '2026-05-27-nylon-66-outlook-auto-demand': { why: 'caprolactam and nylon 66 offers: no line of the data prices them', numbers: ['US$ 1,380/t', 'US$ 2,750–2,850/t'] },
  '2026-10-29-nylon-outlook-caprolactam': {
    why: 'nylon and caprolactam prices and the desk’s calls for them: no line of the data prices them',
    numbers: ['Rs 5–8/kg', 'Rs 198/kg', 'Rs 190–193/kg', 'Rs 172/kg', 'Rs 166–169/kg', 'US$ 2,650–2,750/t', 'US$ 2,620–2,720/t', 'US$ 1,290/t', 'US$ 1,220–1,260/t'],
  },
  '2026-11-16-bopp-outlook-q4-2026': { why: 'forecast moves (the desk’s expectation, not data)', numbers: ['Rs 2–4/kg', 'Rs 1.50–3.00/kg'] },
  '2026-11-13-pvc-outlook-q1-2027': { why: 'forecast moves (the price they are from is a template) and a hypothetical duty’s effect', numbers: ['Rs 1–2/kg', 'US$ 50–150/t', '₹1–2/kg', '₹1.00–2.50/kg', '₹0.50/kg', '₹1.50/kg'] },
  '2026-11-10-pvc-outlook-post-diwali': { why: 'the forecast move (the price it is from is a template)', numbers: ['Rs 1–2/kg', 'Rs 1–2/kg'] },
  '2026-11-21-pp-price-prediction-december': { why: 'the forecast moves (the prices they are from are templates)', numbers: ['Rs 1–2/kg', 'Rs 1–2/kg', 'Rs 1–2/kg', 'Rs 1–2/kg', 'US$ 15–30/t', 'US$ 10–30/t'] },
  '2026-10-24-pe-prediction-november': { why: 'the desk’s forecast moves', numbers: ['Rs 1–2/kg', 'Rs 1/kg'] },
  '2026-11-17-requirement-pp-raffia-ahmedabad': { why: 'the buyer’s own target price (the list it is set against is a template)', numbers: ['Rs 100.50–101.00/kg'] },
  '2026-10-14-hmel-bathinda-hdpe-swing-unit': { why: 'freight from Gujarat and distributors’ discounts, not prices', numbers: ['Rs 1.50–2.00/kg', 'Rs 0.50–1.00/kg'] },
  '2026-07-08-monsoon-polymer-prediction': { why: 'the desk’s forecast move and a sensitivity (per rupee of depreciation)', numbers: ['Rs 1–3/kg', 'Rs 1/kg'] },
  '2026-09-12-requirement-pvc-k67-indore': { why: 'road freight Kandla to Indore, not a price the data holds', numbers: ['Rs 2.10/kg'] },
  '2026-11-04-iocl-pe-rate-revision-november': { why: 'the desk’s expected move after Diwali', numbers: ['Rs 1/kg'] },
  '2026-06-02-gail-hdpe-rollover-june': { why: 'discounts buyers ask of distributors, not prices', numbers: ['Rs 0.50–1.00/kg'] },
  '2026-10-28-offer-lldpe-film-nhava-sheva': { why: 'the seller’s own asking prices (the list they are set against is a template)', numbers: ['US$ 975/t', 'Rs 97.80/kg'] },
  '2026-11-20-offer-hdpe-blow-moulding-ex-kandla': { why: 'the seller’s own asking price and road freight (the lists are templates)', numbers: ['Rs 98.50/kg', 'Rs 1.10–1.60/kg'] },
  '2025-10-02-ps-outlook-festive-2025': { why: 'the desk’s forecast move and GPPS offers (no line of the data prices PS)', numbers: ['Rs 2–3/kg', 'US$ 1,090–1,120/t'] },
  '2026-04-14-ps-outlook-summer-appliances': { why: 'the desk’s forecast move and GPPS and HIPS offers (no line of the data prices PS)', numbers: ['Rs 2/kg', 'US$ 1,150–1,180/t', 'US$ 1,230–1,260/t'] },
  '2026-11-05-ps-outlook-styrene-slump': { why: 'the desk’s forecast move and GPPS offers (no line of the data prices PS)', numbers: ['Rs 3–5/kg', 'US$ 1,060–1,090/t'] },
  '2026-11-07-polyester-outlook-pta-meg': { why: 'the desk’s forecast move', numbers: ['Rs 2–4/kg'] },
  '2026-11-09-pe-outlook-winter-2026': { why: 'the desk’s forecast moves (the prices they are from are templates)', numbers: ['₹1–2/kg', '₹1.50/kg'] },
  '2026-11-12-pp-outlook-december-2026': { why: 'a forecast move, a sensitivity (per rupee of depreciation) and the threshold of a revision', numbers: ['Rs 1.50–3.00/kg', 'Rs 0.90/kg', 'US$ 5/bbl'] },
  '2026-10-09-bopp-festive-demand': { why: 'BOPP film moves and the desk’s call for them: no line of the data prices BOPP film (PP film grade is a template)', numbers: ['Rs 2–3/kg', 'Rs 2–3/kg', 'Rs 2–3/kg', 'Rs 2–3/kg'] },
  '2026-11-14-bopp-film-prices-soften-ahmedabad': { why: 'BOPP film moves and the spread of other film centres: no line of the data prices BOPP film (PP film grade is a template)', numbers: ['Rs 2/kg', 'Rs 2/kg', 'Rs 2/kg', 'Rs 1/kg'] },
  '2025-12-05-offer-pp-injection-surplus-delhi': { why: 'the seller’s own asking price and delivery charge (the Delhi sheet beside it is a template)', numbers: ['Rs 99/kg', 'Rs 0.60/kg'] },
  '2025-08-28-abs-outlook-festive-appliances': { why: 'ABS offers: no line of the data prices ABS', numbers: ['US$ 1,380–1,420/t'] },
  '2026-05-06-abs-outlook-butadiene': { why: 'the desk’s forecast move and ABS offers (no line of the data prices ABS)', numbers: ['Rs 3–5/kg', 'US$ 1,450–1,490/t'] },
  '2026-10-22-abs-outlook-two-wheeler-demand': { why: 'the desk’s forecast band and ABS offers (no line of the data prices ABS)', numbers: ['Rs 2/kg', 'US$ 1,360–1,400/t'] },
  '2025-12-03-pbt-outlook-2026': { why: 'BDO: no line of the data prices it', numbers: ['RMB 7,800/t'] },
  '2026-07-14-pbt-outlook-ev-connectors': { why: 'BDO and PBT offers: no line of the data prices them', numbers: ['RMB 7,600/t', 'US$ 1,480–1,540/t'] },
  '2026-11-04-pbt-outlook-bdo-weakness': { why: 'the desk’s forecast move, PBT and BDO prices: no line of the data prices them', numbers: ['Rs 3–5/kg', 'Rs 176/kg', 'US$ 1,430–1,490/t', 'RMB 7,400/t'] },
  '2025-12-15-pe-outlook-january-2026': { why: 'the desk’s forecast moves (the prices they are from are templates)', numbers: ['₹0–1/kg', '₹0–1/kg', '₹0–1.50/kg', '₹0–2/kg'] },
  '2026-03-20-pe-outlook-q2-2026': { why: 'the desk’s forecast moves (the prices they are from are templates)', numbers: ['₹1–2/kg', '₹1–2/kg', '₹0.50–1.50/kg', '₹1–2/kg', '₹0–1/kg', 'Rs 1–2/kg', '₹0.50–1.50/kg'] },
  '2025-07-16-pet-outlook-monsoon-2025': { why: 'PET offers (no line of the data prices PET), a risk threshold for Brent and the move it would bring', numbers: ['US$ 820–840/t', 'US$ 65/bbl', 'Rs 1–2/kg'] },
  '2026-02-24-pet-outlook-summer-bottling': { why: 'the desk’s forecast move and PET offers (no line of the data prices PET)', numbers: ['Rs 3–4/kg', 'US$ 910–930/t'] },
  '2026-10-27-pet-outlook-winter-lull': { why: 'the desk’s forecast move and PET offers (no line of the data prices PET)', numbers: ['Rs 2–3/kg', 'Rs 2–3/kg', 'US$ 850–870/t'] },
  '2025-09-10-pp-outlook-festive-2025': { why: 'the desk’s forecast moves (the price they are from is a template)', numbers: ['₹1–2/kg', '₹1.00–1.50/kg', 'Rs 1–2/kg'] },
  '2026-06-18-pp-outlook-monsoon-quarter': { why: 'the desk’s forecast moves (the price they are from is a template) and a sensitivity (per rupee of depreciation)', numbers: ['Rs 2–3/kg', 'Rs 1/kg', '₹0.50/kg', '₹1/kg', '₹1.00–2.50/kg'] },
  '2025-05-22-pvc-outlook-monsoon-2025': { why: 'the desk’s forecast moves (the price they are from is a template)', numbers: ['Rs 2–3/kg', '₹0.50–1.00/kg', '₹1–2/kg', '₹1.50–2.50/kg'] },
  '2026-08-05-pvc-outlook-post-monsoon': { why: 'the desk’s forecast moves (the prices they are from are templates)', numbers: ['Rs 2–3/kg', 'US$ 20–40/t', '₹1.00–1.50/kg', '₹2–3/kg', '₹1.00–2.50/kg'] },
  '2025-09-24-san-outlook-festive-2025': { why: 'the desk’s forecast move and SAN offers (no line of the data prices SAN)', numbers: ['Rs 2–3/kg', 'US$ 1,370–1,410/t'] },
  '2026-04-28-san-outlook-styrene-acn': { why: 'SAN offers: no line of the data prices SAN', numbers: ['US$ 1,420–1,460/t'] },
  '2026-11-11-san-outlook-appliance-winter': { why: 'the desk’s forecast move and SAN prices (no line of the data prices SAN)', numbers: ['Rs 3–4/kg', 'Rs 154/kg', 'US$ 1,320–1,360/t'] },
  '2026-07-22-bopp-outlook-pre-festive': { why: 'the desk’s forecast moves for BOPP film and PP film grade (the price it is from is a template)', numbers: ['Rs 3–4/kg', '₹1–2/kg'] },
};


const cellsOf = (row: string): string[] => row.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());

/**
 * Prices a table writes without a currency: a bare number or range ("101.00", "137–139") in a
 * column whose header names a price unit ("Rs/kg", "(US$/t …"), not a change. Templates are
 * taken out first, so a column of quotes has none.
 */
const tablePrices = (text: string): string[] => {
  const rows = text.replace(/\{\{[^}]*\}\}/g, '').split('\n');
  const found: string[] = [];
  for (let i = 0; i + 1 < rows.length; i++) {
    if (!rows[i]!.startsWith('|') || !/^\|[\s|:-]+\|$/.test(rows[i + 1]!.trim())) continue;
    const header = cellsOf(rows[i]!);
    const priced = header.map((h) => /(?:Rs|₹|US\$|USD)\s?\/\s?(?:kg|t|MT|bbl)|\((?:Rs|₹|US\$)/i.test(h) && !/change/i.test(h));
    for (let j = i + 2; j < rows.length && rows[j]!.startsWith('|'); j++)
      cellsOf(rows[j]!).forEach((cell, k) => {
        if (priced[k] && /^\d[\d,]*(?:\.\d+)?(?:\s?[–-]\s?\d[\d,]*(?:\.\d+)?)?$/.test(cell)) found.push(`${header[k]}: ${cell}`);
      });
  }
  return found;
};

/**
 * Posts whose tables price what no line of the data prices (BOPP film, ABS, nylon …), with why:
 * any other table with bare prices under a price unit fails (a producer's list, a grade the
 * data holds is a template).
 */
const TABLES_NOT_DATA: Readonly<Record<string, string>> = {
  '2025-11-25-bopp-film-export-enquiries': 'BOPP film export offers',
  '2026-05-19-bopp-capacity-additions-2026': 'BOPP film prices (PP film grade beside them is a template)',
  '2026-10-09-bopp-festive-demand': 'BOPP film prices',
  '2026-11-14-bopp-film-prices-soften-ahmedabad': 'BOPP film prices',
  '2025-12-22-bopp-outlook-early-2026': 'BOPP film prices and the desk’s calls for them',
  '2026-07-22-bopp-outlook-pre-festive': 'BOPP film prices and the desk’s calls for them',
  '2026-11-16-bopp-outlook-q4-2026': 'BOPP film prices',
  '2025-08-28-abs-outlook-festive-appliances': 'ABS prices',
  '2026-05-06-abs-outlook-butadiene': 'ABS prices',
  '2026-10-22-abs-outlook-two-wheeler-demand': 'ABS prices',
  '2025-11-19-eva-outlook-q1-2026': 'EVA prices and offers',
  '2026-06-25-eva-outlook-footwear': 'EVA prices',
  '2025-12-03-pbt-outlook-2026': 'the desk’s PBT ranges',
  '2026-07-14-pbt-outlook-ev-connectors': 'PBT prices and the desk’s calls for them',
  '2026-11-04-pbt-outlook-bdo-weakness': 'the desk’s PBT calls',
  '2025-06-11-pc-outlook-h2-2025': 'polycarbonate prices',
  '2026-03-03-pc-outlook-electrical-season': 'polycarbonate prices',
  '2026-10-19-pc-outlook-chinese-capacity': 'polycarbonate prices',
  '2025-07-16-pet-outlook-monsoon-2025': 'PET prices and the desk’s calls for them',
  '2026-02-24-pet-outlook-summer-bottling': 'PET prices and the desk’s calls for them',
  '2026-10-27-pet-outlook-winter-lull': 'PET prices and the desk’s calls for them',
  '2025-08-13-pmma-outlook-2025': 'PMMA prices and the desk’s calls for them',
  '2026-06-09-pmma-outlook-lighting-signage': 'PMMA prices and the desk’s calls for them',
  '2026-11-02-pmma-outlook-mma-costs': 'the desk’s PMMA calls',
  '2025-07-30-pom-outlook-auto-parts': 'POM prices and the desk’s calls for them',
  '2026-04-09-pom-outlook-import-sources': 'POM prices and the desk’s calls for them',
  '2026-10-26-pom-outlook-methanol': 'the desk’s POM calls',
  '2025-10-02-ps-outlook-festive-2025': 'polystyrene prices',
  '2026-04-14-ps-outlook-summer-appliances': 'polystyrene prices',
  '2026-11-05-ps-outlook-styrene-slump': 'polystyrene prices',
  '2025-09-24-san-outlook-festive-2025': 'SAN prices and the desk’s calls for them',
  '2026-04-28-san-outlook-styrene-acn': 'SAN prices and the desk’s calls for them',
  '2026-11-11-san-outlook-appliance-winter': 'the desk’s SAN calls',
  '2025-10-15-nylon-outlook-textile-yarn': 'nylon prices',
  '2026-05-27-nylon-66-outlook-auto-demand': 'nylon prices',
  '2025-11-05-polyester-outlook-winter-2025': 'polyester yarn and fibre prices',
  '2026-08-19-polyester-outlook-festive-yarn': 'polyester yarn and fibre prices',
  '2026-11-07-polyester-outlook-pta-meg': 'polyester yarn and fibre prices and domestic PTA and MEG (the data has PTA and MEG CFR China only)',
};

const posts = files.map((file) => {
  const text = readFileSync(join(NEWS, file), 'utf8');
  return { id: seedIdOf(file), prices: fixedPrices(text), tablePrices: tablePrices(text) };
});

describe('the seed posts’ fixed prices', () => {
  it('finds prices as posts write them, and none inside templates', () => {
    expect(fixedPrices('naphtha about US$ 605/t C&F Japan; offers rose to US$ 720–740/t; cut by Rs 1.50/kg; ₹101.50/kg; USD 975/MT; US$ 80/bbl')).toEqual([
      'US$ 605/t',
      'US$ 720–740/t',
      'Rs 1.50/kg',
      '₹101.50/kg',
      'USD 975/MT',
      'US$ 80/bbl',
    ]);
    expect(fixedPrices('naphtha {{price feedstock.naphtha.japan}} and {{revision list.hmel.ppRaffia.bathinda}}')).toEqual([]);
    expect(fixedPrices('The rupee is at about 88.6 per dollar. | USD/INR | 88.9 | A rupee near 89–90 limits it.')).toEqual(['rupee is at about 88.6', 'USD/INR | 88.9', 'rupee near 89']);
    expect(fixedPrices('The rupee, at {{price fx.usdinr}}, limits the fall; a fall of one rupee adds Rs 1.50/kg; the rupee fell 2% in 2025; US$/INR within 50 paise.')).toEqual(['Rs 1.50/kg']);
  });

  it('are each not data, with why (a price the data holds is a template)', () => {
    const unlisted = posts.flatMap(({ id, prices }) => {
      const allowed = [...(NOT_DATA[id]?.numbers ?? [])];
      return prices.filter((price) => {
        const at = allowed.indexOf(price);
        if (at < 0) return true;
        allowed.splice(at, 1);
        return false;
      }).map((price) => `${id}: ${price}`);
    });
    expect(unlisted).toEqual([]);
  });

  it('finds prices a table writes without a currency, under a price unit, and none in a change column or a template', () => {
    const table = ['| Grade | Now (Rs/kg) | Change vs 4 Nov | Call |', '|---|---|---|---|', '| Raffia | 103.00 | 0.00 | 101–102 |', '| Film | {{price historical.ppFilm.mumbai}} | −1.00 | Flat |'].join('\n');
    expect(tablePrices(table)).toEqual(['Now (Rs/kg): 103.00']);
    expect(tablePrices('| Month | Plain 20 micron (Rs/kg, Ahmedabad) |\n|---|---|\n| July | 137–139 |\n| August | ₹1–2/kg higher |')).toEqual(['Plain 20 micron (Rs/kg, Ahmedabad): 137–139']);
  });

  it('have tables of bare prices only where they price what the data does not (with why)', () => {
    expect(posts.filter((p) => p.tablePrices.length > 0 && !(p.id in TABLES_NOT_DATA)).map((p) => `${p.id}: ${p.tablePrices.join('; ')}`)).toEqual([]);
    for (const [id, why] of Object.entries(TABLES_NOT_DATA)) {
      expect(posts.find((p) => p.id === id)?.tablePrices.length ?? 0, id).toBeGreaterThan(0);
      expect(why, id).not.toBe('');
    }
  });

  it('list nothing stale: every listed number is in its post, every reason is given', () => {
    const byId = new Map(posts.map((p) => [p.id, p.prices]));
    for (const [id, { why, numbers }] of Object.entries(NOT_DATA)) {
      expect(byId.has(id), id).toBe(true);
      expect(byId.get(id)!.toSorted(), id).toEqual([...numbers].toSorted());
      if (numbers.length > 0) expect(why, id).not.toBe('');
    }
  });
});
