/** GET /api/export/{seriesId}.csv → every point of one series in the price CSV format (docs/csv-format.md). */
import { CSV_MEDIA_TYPE, toPriceCsv } from '../../lib/csv.ts';
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
  // Not a prepared body: a whole history is large and downloads are rare.
  const body = toPriceCsv(series.id, await store.points(series.id));
  return cachedBody({ headers }, body, {
    contentType: CSV_MEDIA_TYPE,
    headers: { 'Content-Disposition': `attachment; filename="${series.id}.csv"` },
  });
}
