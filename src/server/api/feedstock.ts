/**
 * GET /api/feedstock: query validation and the answer, given a store. Kept out of the route
 * file (no astro:* imports): both lanes (routes.ts) and `npm run bench` run this exact code.
 */
import { z } from 'astro/zod';
import { feedstocks, findFeedstockInsensitive, findSubMarket } from '../../lib/catalog.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { averageByPeriod, lastTwelveMonths, periodTypes, toKeyValue, yearRange, type PeriodType } from '../../lib/series.ts';
import { decimalsOf } from '../../lib/numbers.ts';
import { feedstockSeriesId } from '../../lib/seriesCatalog.ts';
import type { BodyCache } from '../http/bodyCache.ts';
import { requireDataAccess } from '../http/access.ts';
import type { ApiAnswer } from '../http/answer.ts';
import { preparedAnswer } from '../http/json.ts';
import { memoQuery, perYear, yearParam } from '../http/query.ts';
import type { PriceStore } from '../store/prices.ts';
import type { EndpointContext, RequestHeaders } from '../edge/endpoint.ts';
import { preparedBodiesOf } from './prepared.ts';

export const feedstockQuery = perYear((now) =>
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
      year: yearParam(now),
    })
    .transform((query, ctx) => {
      const market =
        query.country === undefined || query.country === ''
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
    }),
);

const parseFeedstockQuery = memoQuery((now) => feedstockQuery(now));

/** Validates the query and answers `{data:{key,value}}` (or the 400). Access is checked by the caller. */
export async function feedstockResponse(
  store: PriceStore,
  request: { readonly headers: RequestHeaders },
  url: URL,
  cache: BodyCache = preparedBodiesOf(store),
): Promise<ApiAnswer> {
  const now = new Date();
  const query = parseFeedstockQuery(url, now);
  if (!query.ok) return query.response;
  const { feedstock, market, type, year } = query.data;
  const range = year === undefined ? lastTwelveMonths(isoDateOf(now)) : yearRange(year);
  const seriesId = feedstockSeriesId(feedstock.slug, market.call);
  const key = `feedstock|${seriesId}|${range.from}|${range.to}|${type}`;
  const { body, etag } = await cache.get(key, store.version(), async () =>
    JSON.stringify({ data: toKeyValue(averageByPeriod(await store.points(seriesId, range), type), decimalsOf(market.basis)) }),
  );
  return preparedAnswer(request, body, { etag });
}

/** GET /api/feedstock?name&country&type[&year] → {data:{key:[dd/mm/yyyy…], value:[…]}} (the legacy shape, docs/data.md). */
export const feedstock = async ({ locals, store, headers, url }: EndpointContext): Promise<ApiAnswer> =>
  requireDataAccess(locals) ?? feedstockResponse(await store(), { headers }, url);
