/**
 * GET /api/export/{seriesId}.csv → every point of one series the visitor's plan reaches (its
 * history years, src/lib/access/history.ts), after its basis row, in the price CSV format
 * (docs/csv-format.md).
 */
import { historyReachOf } from '../../lib/access/policy.ts';
import { basisFields, csvIntro } from '../../lib/basis.ts';
import { BYTE_ORDER_MARK, CSV_MEDIA_TYPE, toPriceCsv } from '../../lib/csv.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { decimalsOf } from '../../lib/numbers.ts';
import { findSeries, seriesBasis } from '../../lib/seriesCatalog.ts';
import { requireDataAccess } from '../http/access.ts';
import { badRequest, cachedBody } from '../http/json.ts';
import { siteOrigin } from '../http/site.ts';
import type { EndpointContext } from '../edge/endpoint.ts';

export async function exportCsv({ locals, store: open, headers, params }: Pick<EndpointContext, 'locals' | 'store' | 'headers' | 'params'>): Promise<Response> {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  const store = await open();
  const series = findSeries(params['series'] ?? '');
  if (!series) return badRequest('invalid_series', 'series must be a series id such as feedstock.naphtha.japan.', 'series');
  const basis = seriesBasis(series);
  // Not a prepared body: a whole history is large and downloads are rare. Cut at the plan's history reach.
  const now = new Date();
  const { earliest } = historyReachOf(locals.session, now);
  const points = earliest === null ? await store.points(series.id) : await store.points(series.id, { from: earliest, to: isoDateOf(now) });
  const csv = toPriceCsv({ series: series.id, points, decimals: decimalsOf(basis), basis: basisFields(basis, series.label, siteOrigin) }, csvIntro(siteOrigin));
  return cachedBody({ headers }, BYTE_ORDER_MARK + csv, {
    contentType: CSV_MEDIA_TYPE,
    headers: { 'Content-Disposition': `attachment; filename="${series.id}.csv"` },
  });
}
