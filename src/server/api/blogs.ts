/**
 * GET /api/blogs?type&year&month → {data:[…]} oldest first (the legacy client reverses it):
 * the live posts of one type from the Store. No astro:* import: a row of the data API's routing
 * table (src/server/api/routes.ts), so the Astro route file and the node:http fast lane both
 * answer with blogsResponse(store, request, url, session).
 *
 * - `type`: today's key (`plant-news`, `future-trend/PP` …) or a value the original's clients
 *   send (`PlantNews`, `PP`, `India` …: catalog.resolveNewsType); default `blog`.
 * - Access: the type's own section decides (policy.blogsRequirement): the limited sections'
 *   types (buy-sell, VIP delegations, services) answer every signed-in account that may open
 *   those pages; the other types need full access. Anonymous callers get 401 before their query
 *   is looked at; an account the type is not for gets 403.
 */
import { z } from 'astro/zod';
import { blogsRequirement, entitlementMeets } from '../../lib/access/policy.ts';
import { newsTypes, resolveNewsType, type NewsType } from '../../lib/catalog.ts';
import { toSlashedDate } from '../../lib/dates.ts';
import { articlePath, postDate, type Post } from '../../lib/posts.ts';
import type { Session } from '../auth/session.ts';
import { cachedJson, badRequest } from '../http/json.ts';
import { monthParam, parseQuery, perYear, yearParam } from '../http/query.ts';
import { jsonError, unauthenticated } from '../http/responses.ts';
import type { PostStore } from '../store/posts.ts';
import type { EndpointHandler, RequestHeaders } from '../edge/endpoint.ts';

/** Posts one answer lists at most (a type's whole history when no year is given). */
export const BLOGS_LIMIT = 500;

export const blogsQuery = perYear((now) =>
  z.object({
    type: z
      .string()
      .optional()
      .transform((type, ctx) => {
        if (type === undefined || type.trim() === '') return 'blog' as NewsType;
        const found = resolveNewsType(type);
        if (!found) {
          ctx.addIssue({ code: 'custom', message: `type must be one of ${newsTypes.join(', ')} (or a legacy name such as PlantNews, PP, India).` });
          return z.NEVER;
        }
        return found;
      }),
    year: yearParam(now),
    month: monthParam,
  }),
);

/** One post as the legacy list shows it. */
export const blogOf = (post: Post) => ({
  id: post.id,
  slug: post.slug,
  title: post.title,
  type: post.type,
  date: toSlashedDate(postDate(post)),
  summary: post.summary,
  author: post.author,
  tags: post.tags,
  access: post.access,
  url: articlePath(post),
});

export async function blogsResponse(
  store: PostStore,
  request: { readonly headers: RequestHeaders },
  url: URL,
  session: Session | null | undefined,
  now: Date = new Date(),
): Promise<Response> {
  if (!session || session.entitlement === 'anonymous') return unauthenticated();
  // The policy's answer for this type (the middleware asked the same before the endpoint ran).
  if (!entitlementMeets(blogsRequirement(url.search), session.entitlement)) {
    return jsonError(403, 'forbidden', 'Your plan does not include this data.');
  }
  const query = parseQuery(url, blogsQuery(now));
  if (!query.ok) return query.response;
  const { type, year, month } = query.data;
  if (month !== undefined && year === undefined) return badRequest('invalid_query', 'month needs a year.', 'year');
  const posts = await store.livePosts({ type, year, month, limit: BLOGS_LIMIT }, now);
  return cachedJson(request, { data: posts.toReversed().map(blogOf) });
}

/** The routing table's handler (both lanes). */
export const blogs: EndpointHandler = async ({ store, headers, url, locals }) => blogsResponse(await store(), { headers }, url, locals.session);
