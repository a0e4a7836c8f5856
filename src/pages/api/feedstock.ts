/** GET /api/feedstock?name&country&type[&year] → {data:{key:[dd/mm/yyyy…], value:[…]}} (DESIGN §6). */
import type { APIRoute } from 'astro';
import { feedstockResponse } from '../../server/api/feedstock.ts';
import { requireDataAccess } from '../../server/http/access.ts';
import { store as getStore } from '../../server/runtime.ts';

export const GET: APIRoute = async ({ request, url, locals }) =>
  requireDataAccess(locals) ?? feedstockResponse(await getStore(), request, url);
