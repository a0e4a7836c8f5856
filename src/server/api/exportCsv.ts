/**
 * GET /api/export/{seriesId}.csv → every point of one series the visitor's plan reaches (its
 * history years, src/lib/access/history.ts) in the price CSV format (docs/csv-format.md).
 */
import { historyReachOf } from '../../lib/access/policy.ts';
import { CSV_MEDIA_TYPE, toPriceCsv } from '../../lib/csv.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { findSeries } from '../../lib/seriesCatalog.ts';
import { requireDataAccess } from '../http/access.ts';
import { badRequest, cachedBody } from '../http/json.ts';
import type { EndpointContext } from '../edge/endpoint.ts';

export async function exportCsv({ locals, store: open, headers, params }: Pick<EndpointContext, 'locals' | 'store' | 'headers' | 'params'>): Promise<Response> {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  const store = await open();
  const series = findSeries(params['series'] ?? '');
  if (!series) return badRequest('invalid_series', 'series must be a series id such as feedstock.naphtha.japan.', 'series');
  // Not a prepared body: a whole history is large and downloads are rare. Cut at the plan's history reach.
  const now = new Date();
  const { earliest } = historyReachOf(locals.session, now);
  const points = earliest === null ? await store.points(series.id) : await store.points(series.id, { from: earliest, to: isoDateOf(now) });
  const body = toPriceCsv(series.id, points);
  return cachedBody({ headers }, body, {
    contentType: CSV_MEDIA_TYPE,
    headers: { 'Content-Disposition': `attachment; filename="${series.id}.csv"` },
  });
}
