/** GET /api/citywise → {data:[{city, call, entries:[{type, display, call, price, date}]}]}; the first city is the default. */
import type { APIRoute } from 'astro';
import { toCityRecords } from '../../../lib/citywise.ts';
import { requireDataAccess } from '../../../server/http/access.ts';
import { cachedJson } from '../../../server/http/json.ts';
import { store as getStore } from '../../../server/runtime.ts';

export const GET: APIRoute = async ({ request, locals }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  const store = await getStore();
  return cachedJson(request, { data: toCityRecords(await store.latestCitySheets()) });
};
