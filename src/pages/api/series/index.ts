/** GET /api/series?ids&from&to&unit[&view&ma] → several series in one unit (src/server/api/series.ts). */
import type { APIRoute } from 'astro';
import { seriesResponse } from '../../../server/api/series.ts';
import { requireDataAccess } from '../../../server/http/access.ts';
import { store as getStore } from '../../../server/runtime.ts';

export const GET: APIRoute = async ({ request, url, locals }) =>
  requireDataAccess(locals) ?? seriesResponse(await getStore(), request, url);
