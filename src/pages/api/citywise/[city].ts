/** GET /api/citywise/{city}[?date=YYYY-MM-DD] → {data:[{type, display, call, price, date}]}: the city's newest sheet, or that date's. */
import type { APIRoute } from 'astro';
import { cities, findCity } from '../../../lib/catalog.ts';
import { toCityEntries } from '../../../lib/citywise.ts';
import { parseIsoDate } from '../../../lib/dates.ts';
import { requireDataAccess } from '../../../server/http/access.ts';
import { badRequest, cachedJson } from '../../../server/http/json.ts';
import { store as getStore } from '../../../server/runtime.ts';

export const GET: APIRoute = async ({ request, url, params, locals }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  const city = findCity(params['city']?.trim());
  if (!city) return badRequest('invalid_city', `city must be one of ${cities.map((c) => c.slug).join(', ')}.`, 'city');
  // Any past date's sheet (the city-wise history); none that day is an empty list.
  const askedDate = url.searchParams.get('date');
  const date = askedDate === null || askedDate === '' ? null : parseIsoDate(askedDate);
  if (askedDate && !date) return badRequest('invalid_input', 'date must be a calendar date written YYYY-MM-DD.', 'date');
  const store = await getStore();
  return cachedJson(request, { data: toCityEntries(date ? await store.citySheetOn(city.slug, date) : await store.latestCitySheet(city.slug)) });
};
