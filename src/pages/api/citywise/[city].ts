/** GET /api/citywise/{city} → {data:[{type, display, call, price, date}]}: the city's newest sheet. */
import type { APIRoute } from 'astro';
import { cities, findCity } from '../../../lib/catalog.ts';
import { toCityEntries } from '../../../lib/citywise.ts';
import { requireDataAccess } from '../../../server/http/access.ts';
import { badRequest, cachedJson } from '../../../server/http/json.ts';
import { store as getStore } from '../../../server/runtime.ts';

export const GET: APIRoute = async ({ request, params, locals }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  const city = findCity(params['city']?.trim());
  if (!city) return badRequest('invalid_city', `city must be one of ${cities.map((c) => c.slug).join(', ')}.`, 'city');
  const store = await getStore();
  return cachedJson(request, { data: toCityEntries(await store.latestCitySheet(city.slug)) });
};
