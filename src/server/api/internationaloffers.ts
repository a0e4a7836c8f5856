/**
 * GET /api/internationaloffers?country&month&year → {data:{data:[{date, data:{group:{grade:value}},
 * ranges?:{group:{grade:{low, high}}}}]}}: the legacy shape (docs/data.md), plus `ranges` on a
 * date whose offers are quoted low–high (a range cell's value is its mid, one decimal more than
 * its ends, as /api/series writes mids).
 */
import { z } from 'astro/zod';
import { globalBazaarCountries, offerBasis } from '../../lib/catalog.ts';
import { toSlashedDate } from '../../lib/dates.ts';
import { decimalsOf, priceValue, type Quoting } from '../../lib/numbers.ts';
import type { OfferDay } from '../../lib/priceTypes.ts';
import { offerCellsOf, writtenValue } from '../../lib/quotes.ts';
import { readDataQuery } from '../http/access.ts';
import type { ApiAnswer } from '../http/answer.ts';
import { preparedAnswer } from '../http/json.ts';
import { monthParam, perYear, yearParam } from '../http/query.ts';
import type { EndpointContext } from '../edge/endpoint.ts';
import { preparedBodiesOf } from './prepared.ts';

const schema = perYear((now) =>
  z.object({
    country: z
      .string({ error: 'country is required: a global-bazaar country such as USA.' })
      .transform((slug, ctx) => {
        const country = globalBazaarCountries.find((c) => c.slug.toLowerCase() === slug.trim().toLowerCase());
        if (!country) {
          ctx.addIssue({ code: 'custom', message: `country must be one of ${globalBazaarCountries.map((c) => c.slug).join(', ')}.` });
          return z.NEVER;
        }
        return country;
      }),
    month: monthParam,
    year: yearParam(now),
  }),
);

export async function internationaloffers({ locals, store: open, headers, url }: EndpointContext): Promise<ApiAnswer> {
  const query = readDataQuery(locals, url, schema());
  if (!query.ok) return query.response;
  const store = await open();
  const { country } = query.data;
  const key = `internationaloffers|${country.slug}|${query.data.year ?? ''}|${query.data.month ?? ''}`;
  const { body, etag } = await preparedBodiesOf(store).get(key, store.version(), async () => {
    // Without month/year: the newest month that has offers.
    const latest = await store.latestOfferMonth(country.slug);
    const year = query.data.year ?? latest?.year;
    const month = query.data.month ?? latest?.month;
    const offers = year !== undefined && month !== undefined ? await store.offersInMonth(country.slug, year, month) : [];
    const basis = offerBasis(country);
    return JSON.stringify({ data: { data: offers.map((o) => ({ date: toSlashedDate(o.date), ...writtenDay(o, basis) })) } });
  });
  return preparedAnswer({ headers }, body, { etag });
}

/** An offer day as answered: every value in the basis' decimals (a range's mid with one more), the ends of its ranges in the basis' decimals. */
function writtenDay(day: OfferDay, basis: Quoting): OfferDay {
  const cells = Object.entries(offerCellsOf(day));
  const data = Object.fromEntries(cells.map(([group, grades]) => [group, Object.fromEntries(Object.entries(grades).map(([grade, quote]) => [grade, writtenValue(quote, decimalsOf(basis))]))]));
  if (!day.ranges) return { data };
  const ranges = Object.fromEntries(
    Object.entries(day.ranges).map(([group, grades]) => [group, Object.fromEntries(Object.entries(grades).map(([grade, r]) => [grade, { low: priceValue(r.low, basis), high: priceValue(r.high, basis) }]))]),
  );
  return { data, ranges };
}
