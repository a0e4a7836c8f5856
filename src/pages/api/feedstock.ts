/** GET /api/feedstock?name&country&type[&year] → {data:{key:[dd/mm/yyyy…], value:[…]}} (DESIGN §6). */
import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { feedstocks, findFeedstockInsensitive, findSubMarket } from '../../lib/catalog.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { averageByPeriod, lastTwelveMonths, periodTypes, toKeyValue, yearRange, type PeriodType } from '../../lib/series.ts';
import { feedstockSeriesId } from '../../lib/seriesCatalog.ts';
import { requireDataAccess } from '../../server/http/access.ts';
import { cachedJson } from '../../server/http/json.ts';
import { parseQuery, yearParam } from '../../server/http/query.ts';
import { getStore } from '../../server/runtime.ts';

const schema = () =>
  z
    .object({
      name: z
        .string({ error: 'name is required: a feedstock such as Naphtha.' })
        .transform((name, ctx) => {
          const feedstock = findFeedstockInsensitive(name.trim());
          if (!feedstock) {
            ctx.addIssue({ code: 'custom', message: `name must be one of ${feedstocks.map((f) => f.slug).join(', ')}.` });
            return z.NEVER;
          }
          return feedstock;
        }),
      country: z.string().optional(),
      type: z
        .string()
        .optional()
        .transform((type, ctx) => {
          if (type === undefined || type === '') return 'Daily' as PeriodType;
          const found = periodTypes.find((t) => t.toLowerCase() === type.toLowerCase());
          if (!found) {
            ctx.addIssue({ code: 'custom', message: `type must be one of ${periodTypes.join(', ')}.` });
            return z.NEVER;
          }
          return found;
        }),
      year: yearParam(),
    })
    .transform((query, ctx) => {
      const market = query.country === undefined || query.country === ''
        ? query.name.subMarkets[0]!
        : findSubMarket(query.name, query.country.trim());
      if (!market) {
        ctx.addIssue({
          code: 'custom',
          path: ['country'],
          message: `country must be one of ${query.name.subMarkets.map((m) => m.call).join(', ')} for ${query.name.slug}.`,
        });
        return z.NEVER;
      }
      return { feedstock: query.name, market, type: query.type, year: query.year };
    });

export const GET: APIRoute = async ({ request, url, locals }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  const query = parseQuery(url, schema());
  if (!query.ok) return query.response;
  const { feedstock, market, type, year } = query.data;
  const range = year === undefined ? lastTwelveMonths(isoDateOf(new Date())) : yearRange(year);
  const store = await getStore();
  const points = await store.points(feedstockSeriesId(feedstock.slug, market.call), range);
  return cachedJson(request, { data: toKeyValue(averageByPeriod(points, type)) });
};
