/**
 * The Astro lane of a data API route: the route file's GET, behind the access middleware, calls
 * the same handler as the fast lane (src/server/api/routes.ts) with the same context.
 */
import type { APIRoute } from 'astro';
import { apiRoute } from '../api/routes.ts';
import { responseOf } from './answer.ts';
import { store } from '../runtime.ts';

export function astroEndpoint(pattern: string): APIRoute {
  const { handler } = apiRoute(pattern);
  // Astro always passes url, params and locals; a caller that builds a context by hand may not.
  return async ({ request, url, params, locals }) =>
    responseOf(await handler({ url: url ?? new URL(request.url), params: params ?? {}, headers: request.headers, session: locals?.session ?? null, store: await store() }));
}
