/** GET /api/historicaldata?polymer&year → {data:{Mumbai:{date,value}, "CIF NS":{date,value}}} (the legacy shape, docs/data.md). */
import { z } from 'astro/zod';
import { findGradeByKeyOrName, historicalSeries } from '../../lib/catalog.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { lastTwelveMonths, toDateValue, yearRange, type DateValue } from '../../lib/series.ts';
import { decimalsOf } from '../../lib/numbers.ts';
import { historicalSeriesId } from '../../lib/seriesCatalog.ts';
import { readDataQuery } from '../http/access.ts';
import type { ApiAnswer } from '../http/answer.ts';
import { preparedAnswer } from '../http/json.ts';
import { perYear, yearParam } from '../http/query.ts';
import type { EndpointContext } from '../edge/endpoint.ts';
import { preparedBodiesOf } from './prepared.ts';

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

export async function historicaldata({ locals, store: open, headers, url }: EndpointContext): Promise<ApiAnswer> {
  const now = new Date();
  const query = readDataQuery(locals, url, schema(now));
  if (!query.ok) return query.response;
  const store = await open();
  const { polymer, year } = query.data;
  const range = year === undefined ? lastTwelveMonths(isoDateOf(now)) : yearRange(year);
  const { body, etag } = await preparedBodiesOf(store).get(`historicaldata|${polymer.grade.key}|${range.from}|${range.to}`, store.version(), async () => {
    const data: Record<string, DateValue> = {};
    for (const series of historicalSeries) {
      // Points come sorted from the store; toDateValue keeps each value beside its date.
      data[series.name] = toDateValue(await store.points(historicalSeriesId(polymer.grade.key, series.name), range), decimalsOf(series.basis));
    }
    return JSON.stringify({ data });
  });
  return preparedAnswer({ headers }, body, { etag });
}
