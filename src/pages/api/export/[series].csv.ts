/** GET /api/export/{seriesId}.csv → every point of one series in the price CSV format (docs/csv-format.md). */
import type { APIRoute } from 'astro';
import { CSV_MEDIA_TYPE, toPriceCsv } from '../../../lib/csv.ts';
import { findSeries } from '../../../lib/seriesCatalog.ts';
import { requireDataAccess } from '../../../server/http/access.ts';
import { badRequest, cachedBody } from '../../../server/http/json.ts';
import { store as getStore } from '../../../server/runtime.ts';

export const GET: APIRoute = async ({ request, params, locals }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  const series = findSeries(params['series'] ?? '');
  if (!series) return badRequest('invalid_series', 'series must be a series id such as feedstock.naphtha.japan.', 'series');
  const store = await getStore();
  const body = toPriceCsv(series.id, await store.points(series.id));
  return cachedBody(request, body, {
    contentType: CSV_MEDIA_TYPE,
    headers: { 'Content-Disposition': `attachment; filename="${series.id}.csv"` },
  });
};
