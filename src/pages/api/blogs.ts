/** GET /api/blogs?type&year&month → {data:[…]} oldest first (the legacy client reverses it), from the news collection. */
import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { newsTypes, type NewsType } from '../../lib/catalog.ts';
import { toSlashedDate } from '../../lib/dates.ts';
import { readDataQuery } from '../../server/http/access.ts';
import { badRequest, cachedJson } from '../../server/http/json.ts';
import { monthParam, perYear, yearParam } from '../../server/http/query.ts';
import { postsOfType } from '../../server/content.ts';

const schema = perYear((now) =>
  z.object({
    type: z
      .string()
      .optional()
      .transform((type, ctx) => {
        if (type === undefined || type === '') return 'blog' as NewsType;
        const found = newsTypes.find((t) => t === type.trim());
        if (!found) {
          ctx.addIssue({ code: 'custom', message: `type must be one of ${newsTypes.join(', ')}.` });
          return z.NEVER;
        }
        return found;
      }),
    year: yearParam(now),
    month: monthParam,
  }),
);

export const GET: APIRoute = async ({ request, url, locals }) => {
  const query = readDataQuery(locals, url, schema());
  if (!query.ok) return query.response;
  const { type, year, month } = query.data;
  if (month !== undefined && year === undefined) return badRequest('invalid_query', 'month needs a year.', 'year');
  const posts = (await postsOfType(type))
    .filter((p) => year === undefined || Number(p.data.date.slice(0, 4)) === year)
    .filter((p) => month === undefined || Number(p.data.date.slice(5, 7)) === month)
    .toReversed();
  return cachedJson(request, {
    data: posts.map((p) => ({
      id: p.id,
      title: p.data.title,
      type: p.data.type,
      date: toSlashedDate(p.data.date),
      summary: p.data.summary,
      author: p.data.author,
      tags: p.data.tags,
      access: p.data.access,
      url: `/news/${p.id}`,
    })),
  });
};
