/**
 * The data API's endpoints: prices, the city-wise sheets, international offers, the comparison
 * and its exports, saved views, the home page's teaser and ticker, the carousel and the posts'
 * list. Each is declared with the access its path asks (the policy's `decide()` says the same:
 * tests/unit/apiEndpoints.test.ts), and the data endpoints ask again themselves
 * (`requireDataAccess`: defence in depth if a route is reached without the gate).
 *
 * The reads the node:http fast lane answers are rows of ./routes.ts; the rest run in the Astro
 * lane only (writes, and the exports that build files).
 */
import { z } from 'astro/zod';
import { blogsRequirement, entitlementMeets } from '../../lib/access/policy.ts';
import { isExportFormat } from '../../lib/compare/exports.ts';
import { bannerImage as bannerImageHandler } from '../admin/bannerChanges.ts';
import { endpoint } from '../edge/endpoint.ts';
import { requireDataAccess } from '../http/access.ts';
import { jsonError, readSignedInPost, sameOriginError, unauthenticated } from '../http/responses.ts';
import { blogs as blogsHandler } from './blogs.ts';
import { carousels as carouselsHandler } from './carousels.ts';
import { citywise as citywiseHandler, citywiseCity as citywiseCityHandler } from './citywise.ts';
import { exportCsv as exportCsvHandler } from './exportCsv.ts';
import { feedstock as feedstockHandler } from './feedstock.ts';
import { historicaldata as historicaldataHandler } from './historicaldata.ts';
import { teaserResponse, tickerResponse } from './home.ts';
import { internationaloffers as internationaloffersHandler } from './internationaloffers.ts';
import { series as seriesHandler } from './series.ts';
import { seriesExportResponse } from './seriesExport.ts';
import { listViewsResponse, removeViewResponse, saveViewResponse } from './views.ts';

// ---- reads of the routing table (both lanes) ----------------------------------------------

/** GET /api/feedstock?name&country&type[&year] → {data:{key:[dd/mm/yyyy…], value:[…]}}. */
export const feedstock = endpoint('full', feedstockHandler);
/** GET /api/historicaldata?polymer&year → {data:{Mumbai:{date,value}, "CIF NS":{date,value}}}. */
export const historicaldata = endpoint('full', historicaldataHandler);
/** GET /api/internationaloffers?country&month&year → {data:{data:[{date, data}]}}. */
export const internationaloffers = endpoint('full', internationaloffersHandler);
/** GET /api/citywise → every city's newest sheet. */
export const citywise = endpoint('full', citywiseHandler);
/** GET /api/citywise/{city}[?date=YYYY-MM-DD] → one city's sheet. */
export const citywiseCity = endpoint('full', citywiseCityHandler);
/** GET /api/carousels/ → the banner list (public). */
export const carousels = endpoint('public', carouselsHandler);
/** GET /api/export/{seriesId}.csv → every point of one series (docs/csv-format.md). */
export const exportCsv = endpoint('full', exportCsvHandler);
/** GET /api/series?ids&from&to&unit[&view&ma] → the comparison's data. */
export const series = endpoint('full', seriesHandler);
/** GET /api/blogs?type&year&month → {data:[…]} oldest first; the type's own section decides who may read it. */
export const blogs = endpoint(blogsRequirement, blogsHandler);

// ---- the Astro lane only --------------------------------------------------------------------

/** GET /api/carousels/images/{file}: an uploaded banner image (public, immutable). */
export const bannerImage = endpoint('public', bannerImageHandler);

/** GET /api/series/export.{csv|xlsx|svg|png}?<the /api/series query> → the comparison as a file. */
export const seriesExport = endpoint('full', async ({ url, params, locals, store }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  const format = params['format'] ?? '';
  if (!isExportFormat(format)) return jsonError(404, 'not_found', 'There is no such endpoint.');
  return seriesExportResponse(await store(), url, format);
});

/** GET /api/home/teaser → the Naphtha trend's shape and direction, no figures (the home page shows it to everyone). */
export const homeTeaser = endpoint('public', async ({ request, store }) => teaserResponse(await store(), request));

/** GET /api/home/ticker → latest value and change of the key series (subscribers). */
export const homeTicker = endpoint('public', async ({ request, locals, store }) =>
  tickerResponse(await store(), request, entitlementMeets('full', locals.session?.entitlement ?? 'anonymous')),
);

/** GET /api/views → the user's saved comparison views. */
export const listViews = endpoint('full', async ({ locals, store }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  if (!locals.session) return unauthenticated();
  return listViewsResponse(await store(), locals.session.uid);
});

/** POST /api/views `{name, query}` → saves a view (the same name replaces it). */
export const saveView = endpoint('full', async ({ request, locals, store }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  // The body is validated by saveViewResponse, which names the field.
  const input = await readSignedInPost(request, locals.session ?? null, z.unknown());
  if (!input.ok) return input.response;
  return saveViewResponse(await store(), input.session.uid, input.data);
});

/** POST /api/views/{id}/remove → deletes one of the user's saved views (404 when it is not theirs). */
export const removeView = endpoint('full', async ({ request, params, locals, store }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  if (!locals.session) return unauthenticated();
  const crossOrigin = sameOriginError(request);
  if (crossOrigin) return crossOrigin;
  return removeViewResponse(await store(), locals.session.uid, params['id'] ?? '');
});
