/**
 * The admin's edits of the city-wise sheets and the international offers, as endpoints: one row
 * of a city's sheet for a date (with the price the administrator saw: 409 when it changed
 * meanwhile), and a country's offers of a date. Audited in the same transaction.
 */
import type { EndpointHandler } from '../edge/endpoint.ts';
import { z } from 'astro/zod';
import { cityBasis, findCity, findCountry, findGrade, offerBasis } from '../../lib/catalog.ts';
import { formatRange } from '../../lib/numbers.ts';
import { readQuote } from '../../lib/priceRanges.ts';
import { isRange, offerDayOf, type OfferCells } from '../../lib/quotes.ts';
import { json, jsonError, readJson } from '../http/responses.ts';
import { store } from '../runtime.ts';
import { requireAdmin } from './guard.ts';
import { answer, numeric, PriceDay } from './priceChanges.ts';
import { afterPriceWrite } from '../delivery/priceWrites.ts';

export const CityPriceBody = z.object({
  date: PriceDay,
  grade: z.string({ error: 'Choose a grade.' }).trim().min(1, 'Choose a grade.'),
  /** Empty or absent (and no low and high) = remove the row; with low and high, optional: their mid. */
  price: z.union([numeric('The price'), z.literal('').transform(() => null), z.null()]).optional(),
  /** A range's ends (city sheets are quoted low–high: src/lib/catalog.ts, cityBasis). */
  low: z.union([numeric('The low'), z.literal('').transform(() => null), z.null()]).optional(),
  high: z.union([numeric('The high'), z.literal('').transform(() => null), z.null()]).optional(),
  expected: numeric('The previous price').optional(),
});

const name = (label: string) => z.string().trim().min(1, `${label} is empty.`).max(60, `${label} is too long.`);
/** An optional number: absent, null or an empty form field all mean "not given". */
const optionalNumeric = (label: string) => z.preprocess((v) => (v === '' || v === null ? undefined : v), numeric(label).optional());
const RangeCell = z.strictObject({ value: optionalNumeric('The value'), low: optionalNumeric('The low'), high: optionalNumeric('The high') });
const NOT_AN_OFFER = 'An offer is a number (US$/t) or a range {low, high}';
/**
 * One offer: a number (a single price), or `{low, high}` for a range (offers are quoted low–high:
 * src/lib/catalog.ts, offerBasis), the value then their mid (derived; given, it must be it). Read
 * by hand rather than as a zod union, so a bad end is named as its own field (`…Raffia.low`).
 */
const OfferCell = z.unknown().transform((cell, ctx): number | z.output<typeof RangeCell> => {
  if (typeof cell === 'number') return cell;
  if (typeof cell !== 'object' || cell === null || Array.isArray(cell)) {
    ctx.addIssue({ code: 'custom', message: `${NOT_AN_OFFER}.` });
    return z.NEVER;
  }
  const range = RangeCell.safeParse(cell);
  if (range.success) return range.data;
  for (const issue of range.error.issues) {
    ctx.addIssue({ code: 'custom', path: issue.path, message: issue.code === 'unrecognized_keys' ? `${NOT_AN_OFFER}: ${issue.keys.join(', ')} is not part of one.` : issue.message });
  }
  return z.NEVER;
});
export const OffersBody = z.object({
  date: PriceDay,
  data: z
    .record(name('A group'), z.record(name('A grade'), OfferCell), { error: 'Offers must be {group: {grade: value or {low, high}}}.' })
    .refine((d) => Object.keys(d).length > 0 && Object.values(d).every((g) => Object.keys(g).length > 0), 'Give at least one group with one grade.'),
});

/**
 * POST /api/admin/citywise/{city}/set `{date, grade, price|null, expected?}`, or `{date, grade,
 * low, high, expected?}` for a range. A cell stored as a range is changed only by a range (a
 * `price` alone is refused naming `low`), so no write drops its ends.
 */
export const setCityPrice: EndpointHandler = async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  const city = findCity(context.params['city']);
  if (!city) return jsonError(404, 'unknown_city', 'There is no such city.', 'city');
  const input = await readJson(context.request, CityPriceBody);
  if (!input.ok) return input.response;
  const grade = findGrade(input.data.grade);
  if (!grade) return jsonError(400, 'invalid_input', 'The grade must be a catalog grade key such as ppRaffia.', 'grade');
  const { price = null, low = null, high = null } = input.data;
  const removing = price === null && low === null && high === null;
  const reading = removing ? null : readQuote(cityBasis(city), { value: price, low, high });
  if (reading && !reading.ok) return jsonError(400, 'invalid_input', `For a city price, ${reading.message}.`, reading.field === 'value' ? 'price' : reading.field);
  const quote = reading?.ok ? reading.quote : null;
  const db = await store();
  // A range stays a range: one number for a cell kept as low–high (an old form, a script sending
  // only `price`) would silently drop the trader's ends. Low = high gives one number on purpose.
  if (quote && !isRange(quote)) {
    const stored = (await db.citySheetOn(city.slug, input.data.date)).find((r) => r.grade === grade.grade.key);
    if (typeof stored?.low === 'number' && typeof stored.high === 'number') {
      return jsonError(400, 'invalid_input', `For a city price, this price is kept as a range (${formatRange(stored.low, stored.high, cityBasis(city))}): give its low and its high (the same twice for one number).`, 'low');
    }
  }
  const result = await db.adminSetCityPrice({
    city: city.slug,
    date: input.data.date,
    polymerType: grade.polymer.slug,
    grade: grade.grade.key,
    price: quote?.value ?? null,
    low: quote?.low,
    high: quote?.high,
    expected: input.data.expected ?? null,
    actor: gate.actor,
    now: new Date(),
  });
  if (result.kind === 'written') void afterPriceWrite({ cityPrices: [{ city: city.slug, grade: grade.grade.key }] });
  return answer(result);
};

/**
 * POST /api/admin/offers/{country}/set `{date, data: {group: {grade: value | {low, high}}}}`: the
 * country's offers of that date, replaced whole. Each offer is read by the desk's one rule
 * (`readQuote`); a bad one is refused naming its field (`data.PP.Raffia`, or `.low`/`.high`/
 * `.value` of a range) and nothing is written.
 */
export const setOffers: EndpointHandler = async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  const country = findCountry(context.params['country']);
  if (!country) return jsonError(404, 'unknown_country', 'There is no such country.', 'country');
  const input = await readJson(context.request, OffersBody);
  if (!input.ok) return input.response;
  const cells: OfferCells = {};
  for (const [group, grades] of Object.entries(input.data.data)) {
    for (const [grade, cell] of Object.entries(grades)) {
      const reading = readQuote(offerBasis(country), typeof cell === 'number' ? { value: cell } : cell);
      if (!reading.ok) return jsonError(400, 'invalid_input', `${group} ${grade}: ${reading.message}.`, typeof cell === 'number' ? `data.${group}.${grade}` : `data.${group}.${grade}.${reading.field}`);
      (cells[group] ??= {})[grade] = reading.quote;
    }
  }
  const result = await (await store()).adminSetOffers({ country: country.slug, date: input.data.date, ...offerDayOf(cells), actor: gate.actor, now: new Date() });
  return result.kind === 'unchanged' ? json({ changed: false }) : json({ changed: true, auditId: result.entry.id });
};
