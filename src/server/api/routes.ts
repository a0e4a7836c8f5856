/**
 * The routing table of the data API's reads, for the node:http fast lane
 * (src/server/lanes/fastLane.ts), which answers them before Astro. Each row is an endpoint of
 * ./endpoints.ts, and the route file at `src/pages{pattern}.ts` binds the same endpoint, so both
 * lanes run the same handler behind the same gate (src/server/edge/gate.ts). Patterns use Astro's
 * file-name syntax (`[param]`), so a test can hold the table and the route files together.
 * Access is decided by `decide()` from the path, as for every other route, never by the table.
 *
 * A new read that should be fast gets a row here; every other endpoint is a route file only.
 */
import type { EndpointHandler } from '../edge/endpoint.ts';
import { feedCatalog, feedLatest, feedOpenApi, feedSeries } from '../feed/endpoints.ts';
import { blogs, carousels, citywise, citywiseCity, exportCsv, feedstock, historicaldata, internationaloffers, series } from './endpoints.ts';

export interface ApiRoute {
  /** The path in Astro's file-name syntax, e.g. `/api/citywise/[city]`. */
  readonly pattern: string;
  /** GET only: every row is a read. */
  readonly handler: EndpointHandler;
}

export const apiRoutes: readonly ApiRoute[] = [
  { pattern: '/api/feedstock', handler: feedstock.handle },
  { pattern: '/api/historicaldata', handler: historicaldata.handle },
  { pattern: '/api/internationaloffers', handler: internationaloffers.handle },
  { pattern: '/api/citywise', handler: citywise.handle },
  { pattern: '/api/citywise/[city]', handler: citywiseCity.handle },
  { pattern: '/api/carousels', handler: carousels.handle },
  { pattern: '/api/export/[series].csv', handler: exportCsv.handle },
  { pattern: '/api/series', handler: series.handle },
  { pattern: '/api/blogs', handler: blogs.handle },
  // The data feed (src/server/feed): `.csv` rows first, since a series id may hold dots.
  { pattern: '/api/v1/openapi.json', handler: feedOpenApi.handle },
  { pattern: '/api/v1/catalog.csv', handler: feedCatalog.handle },
  { pattern: '/api/v1/catalog', handler: feedCatalog.handle },
  { pattern: '/api/v1/latest.csv', handler: feedLatest.handle },
  { pattern: '/api/v1/latest', handler: feedLatest.handle },
  { pattern: '/api/v1/series/[id].csv', handler: feedSeries.handle },
  { pattern: '/api/v1/series/[id]', handler: feedSeries.handle },
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
