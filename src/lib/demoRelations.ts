/**
 * The demo model's links between prices of different bases, stated once for the consistency
 * check from the same constants and functions the generator (src/lib/demoData.ts) builds the
 * prices with. A stored demo price that breaks one (a hand edit, a changed generator) is a
 * screen contradicting another. Pure.
 */
import { allGrades, cities } from './catalog.ts';
import type { Relation } from './consistency.ts';
import { cityDifferential, INDIA_OFFER_PREMIUM, mumbaiExWorks } from './demoData.ts';
import { priceWithUnit } from './numbers.ts';
import { cityLineId, CUSTOMS_LINE_ID, offerLineId, valueAsOf } from './priceLines.ts';
import { historicalSeriesId } from './seriesCatalog.ts';

export function demoRelations(): Relation[] {
  const relations: Relation[] = [];
  for (const { polymer, grade } of allGrades) {
    const name = `${polymer.slug} ${grade.name}`;
    const mumbaiId = historicalSeriesId(grade.key, 'Mumbai');
    const cifId = historicalSeriesId(grade.key, 'CIF NS');
    relations.push({
      name: `${name} Mumbai ex-works = import parity of the latest CIF Nhava Sheva at the customs rate in force`,
      line: mumbaiId,
      expected: (lineOf, date) => {
        const cif = lineOf(cifId);
        const customs = lineOf(CUSTOMS_LINE_ID);
        const cifOn = cif ? valueAsOf(cif, date) : null;
        const rateOn = customs ? valueAsOf(customs, date) : null;
        return cifOn && rateOn ? mumbaiExWorks(cifOn.value, rateOn.value) : null;
      },
    });
    for (const city of cities) {
      const differential = cityDifferential(city.slug);
      relations.push({
        name: `${name} city-wise ${city.name} = Mumbai ex-works ${differential < 0 ? '−' : '+'} ${priceWithUnit(Math.abs(differential), { unit: '₹/kg' })}`,
        line: cityLineId(city.slug, grade.key),
        expected: (lineOf, date) => {
          const line = lineOf(mumbaiId);
          const mumbai = line ? valueAsOf(line, date) : null;
          return mumbai?.date === date ? mumbai.value + differential : null;
        },
      });
    }
    relations.push({
      name: `${name} global-bazaar India offers = the latest CIF Nhava Sheva + ${priceWithUnit(INDIA_OFFER_PREMIUM, { unit: 'US$/t', decimals: 0 })}`,
      line: offerLineId('India', grade.key),
      expected: (lineOf, date) => {
        const cif = lineOf(cifId);
        const cifOn = cif ? valueAsOf(cif, date) : null;
        return cifOn ? cifOn.value + INDIA_OFFER_PREMIUM : null;
      },
    });
  }
  return relations;
}
