/** GET /api/internationaloffers?country&month&year → {data:{data:[{date, data:{group:{grade:value}}}]}} (DESIGN §6). */
import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { globalBazaarCountries } from '../../lib/catalog.ts';
import { toSlashedDate } from '../../lib/dates.ts';
import { readDataQuery } from '../../server/http/access.ts';
import { cachedJson } from '../../server/http/json.ts';
import { monthParam, perYear, yearParam } from '../../server/http/query.ts';
import { store as getStore } from '../../server/runtime.ts';

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

export const GET: APIRoute = async ({ request, url, locals }) => {
  const query = readDataQuery(locals, url, schema());
  if (!query.ok) return query.response;
  const { country } = query.data;
  const store = await getStore();
  // Without month/year: the newest month that has offers.
  const latest = await store.latestOfferMonth(country.slug);
  const year = query.data.year ?? latest?.year;
  const month = query.data.month ?? latest?.month;
  const offers = year !== undefined && month !== undefined ? await store.offersInMonth(country.slug, year, month) : [];
  return cachedJson(request, { data: { data: offers.map((o) => ({ date: toSlashedDate(o.date), data: o.data })) } });
};
