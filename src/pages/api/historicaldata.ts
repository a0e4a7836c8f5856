/** GET /api/historicaldata?polymer&year → {data:{Mumbai:{date,value}, "CIF NS":{date,value}}} (DESIGN §6). */
import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { findGradeByKeyOrName, historicalSeries } from '../../lib/catalog.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { lastTwelveMonths, toDateValue, yearRange, type DateValue } from '../../lib/series.ts';
import { historicalSeriesId } from '../../lib/seriesCatalog.ts';
import { readDataQuery } from '../../server/http/access.ts';
import { cachedJson } from '../../server/http/json.ts';
import { perYear, yearParam } from '../../server/http/query.ts';
import { store as getStore } from '../../server/runtime.ts';

const schema = perYear((now) =>
  z.object({
    polymer: z
      .string({ error: 'polymer is required: a grade key such as ppRaffia.' })
      .transform((key, ctx) => {
        // Today's keys, and the display names the original's clients send ("PP Raffia").
        const grade = findGradeByKeyOrName(key);
        if (!grade) {
          ctx.addIssue({ code: 'custom', message: 'polymer must be a grade key such as ppRaffia or a grade name such as PP Raffia.' });
          return z.NEVER;
        }
        return grade;
      }),
    year: yearParam(now),
  }),
);

export const GET: APIRoute = async ({ request, url, locals }) => {
  const query = readDataQuery(locals, url, schema());
  if (!query.ok) return query.response;
  const { polymer, year } = query.data;
  const range = year === undefined ? lastTwelveMonths(isoDateOf(new Date())) : yearRange(year);
  const store = await getStore();
  const data: Record<string, DateValue> = {};
  for (const series of historicalSeries) {
    // Points come sorted from the store; toDateValue keeps each value beside its date.
    data[series.name] = toDateValue(await store.points(historicalSeriesId(polymer.grade.key, series.name), range));
  }
  return cachedJson(request, { data });
};
