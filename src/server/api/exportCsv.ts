/** GET /api/export/{seriesId}.csv → every point of one series, after its basis row, in the price CSV format (docs/csv-format.md). */
import { basisFields, csvIntro } from '../../lib/basis.ts';
import { BYTE_ORDER_MARK, CSV_MEDIA_TYPE, toPriceCsv } from '../../lib/csv.ts';
import { decimalsOf } from '../../lib/numbers.ts';
import { findSeries, seriesBasis } from '../../lib/seriesCatalog.ts';
import { requireDataAccess } from '../http/access.ts';
import { badRequest, cachedBody } from '../http/json.ts';
import { siteOrigin } from '../http/site.ts';
import type { ApiContext } from './context.ts';

export async function exportCsv({ session, store, headers, params }: ApiContext): Promise<Response> {
  const denied = requireDataAccess({ session });
  if (denied) return denied;
  const series = findSeries(params['series'] ?? '');
  if (!series) return badRequest('invalid_series', 'series must be a series id such as feedstock.naphtha.japan.', 'series');
  const basis = seriesBasis(series);
  // Not a prepared body: a whole history is large and downloads are rare.
  const csv = toPriceCsv({ series: series.id, points: await store.points(series.id), decimals: decimalsOf(basis), basis: basisFields(basis, series.label, siteOrigin) }, csvIntro(siteOrigin));
  return cachedBody({ headers }, BYTE_ORDER_MARK + csv, {
    contentType: CSV_MEDIA_TYPE,
    headers: { 'Content-Disposition': `attachment; filename="${series.id}.csv"` },
  });
}
