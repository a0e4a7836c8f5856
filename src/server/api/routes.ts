/**
 * The one routing table of the data API (DESIGN §4, "the data API has a fast lane"). Each row is
 * answered by the same handler in both lanes:
 *   - the node:http fast lane (src/server/lanes/fastLane.ts), which runs before Astro and
 *     applies the access policy itself;
 *   - the Astro route file at `src/pages{pattern}.ts`, a thin wrapper (`astroEndpoint`) behind
 *     the access middleware (used by `astro dev`, and by anything that reaches Astro directly).
 * Patterns use Astro's file-name syntax (`[param]`), so a test can hold the table and the route
 * files together. Access is decided by `decide()` (src/lib/access/policy.ts) from the path, as
 * for every other route; the handlers check again (requireDataAccess).
 *
 * New data endpoints get a row here and a one-line route file; the Astro-only API routes (sign-in, payments, admin, forms, the comparison's
 * binary exports) stay plain route files.
 */
import type { ApiHandler } from './context.ts';
import { blogs } from './blogs.ts';
import { carousels } from './carousels.ts';
import { citywise, citywiseCity } from './citywise.ts';
import { exportCsv } from './exportCsv.ts';
import { feedstock } from './feedstock.ts';
import { historicaldata } from './historicaldata.ts';
import { internationaloffers } from './internationaloffers.ts';
import { series } from './series.ts';

export interface ApiRoute {
  /** The path in Astro's file-name syntax, e.g. `/api/citywise/[city]`. */
  readonly pattern: string;
  /** GET only: every legacy data endpoint is a read. */
  readonly handler: ApiHandler;
}

export const apiRoutes: readonly ApiRoute[] = [
  { pattern: '/api/feedstock', handler: feedstock },
  { pattern: '/api/historicaldata', handler: historicaldata },
  { pattern: '/api/internationaloffers', handler: internationaloffers },
  { pattern: '/api/citywise', handler: citywise },
  { pattern: '/api/citywise/[city]', handler: citywiseCity },
  { pattern: '/api/carousels', handler: carousels },
  { pattern: '/api/export/[series].csv', handler: exportCsv },
  { pattern: '/api/series', handler: series },
  { pattern: '/api/blogs', handler: blogs },
];

interface Compiled {
  readonly route: ApiRoute;
  readonly regex: RegExp;
  readonly names: readonly string[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|\\]/g, '\\$&');

function compile(route: ApiRoute): Compiled {
  const names: string[] = [];
  // A parameter is one path segment (or the part of it before a fixed suffix such as `.csv`).
  const source = route.pattern
    .split(/(\[[a-zA-Z]+\])/)
    .map((part) => {
      const param = /^\[([a-zA-Z]+)\]$/.exec(part);
      if (!param) return escape(part);
      names.push(param[1]!);
      return '([^/]+?)';
    })
    .join('');
  // One optional trailing slash, as Astro's default `trailingSlash: 'ignore'` matches.
  return { route, regex: new RegExp(`^${source}/?$`), names };
}

export interface ApiMatch {
  readonly route: ApiRoute;
  readonly params: Record<string, string | undefined>;
}

export type ApiRouter = (pathname: string) => ApiMatch | null;

/** A matcher over `routes`: the route of a request path and its decoded parameters, or null. */
export function createApiRouter(routes: readonly ApiRoute[]): ApiRouter {
  const compiled = routes.map(compile);
  return (pathname) => {
    if (!pathname.startsWith('/api/')) return null;
    for (const { route, regex, names } of compiled) {
      const m = regex.exec(pathname);
      if (!m) continue;
      const params: Record<string, string | undefined> = {};
      try {
        names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1]!)));
      } catch {
        return null; // let Astro answer a malformed escape as it does today
      }
      return { route, params };
    }
    return null;
  };
}

/** The data API's routes (not a data endpoint, or a malformed escape: null). */
export const matchApiRoute: ApiRouter = createApiRouter(apiRoutes);
const byPattern = new Map(apiRoutes.map((r) => [r.pattern, r]));

/** The route of a pattern, for the Astro route files; throws at build time for a typo. */
export function apiRoute(pattern: string): ApiRoute {
  const route = byPattern.get(pattern);
  if (!route) throw new Error(`No data API route ${pattern} in src/server/api/routes.ts`);
  return route;
}
