/** GET /api/series/export.{csv|xlsx|svg|png}?<the /api/series query> → the comparison as a file (src/server/api/seriesExport.ts). */
import type { APIRoute } from 'astro';
import { isExportFormat } from '../../../lib/compare/exports.ts';
import { seriesExportResponse } from '../../../server/api/seriesExport.ts';
import { requireDataAccess } from '../../../server/http/access.ts';
import { jsonError } from '../../../server/http/responses.ts';
import { store as getStore } from '../../../server/runtime.ts';

export const GET: APIRoute = async ({ url, params, locals }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  const format = params['format'] ?? '';
  if (!isExportFormat(format)) return jsonError(404, 'not_found', 'There is no such endpoint.');
  return seriesExportResponse(await getStore(), url, format);
};
