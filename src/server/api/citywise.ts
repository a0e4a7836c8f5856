/**
 * GET /api/citywise → {data:[{city, call, entries:[{type, display, call, price, date}]}]} (the
 * first city is the default); GET /api/citywise/{city} → {data:[entries]}: the city's newest sheet.
 */
import { cities, findCity } from '../../lib/catalog.ts';
import { toCityEntries, toCityRecords } from '../../lib/citywise.ts';
import { requireDataAccess } from '../http/access.ts';
import { badRequest, cachedBody } from '../http/json.ts';
import type { ApiContext } from './context.ts';
import { preparedBodies } from './prepared.ts';

export async function citywise({ session, store, headers }: ApiContext): Promise<Response> {
  const denied = requireDataAccess({ session });
  if (denied) return denied;
  const { body, etag } = await preparedBodies.get('citywise', store.version(), async () =>
    JSON.stringify({ data: toCityRecords(await store.latestCitySheets()) }),
  );
  return cachedBody({ headers }, body, { etag });
}

export async function citywiseCity({ session, store, headers, params }: ApiContext): Promise<Response> {
  const denied = requireDataAccess({ session });
  if (denied) return denied;
  const city = findCity(params['city']?.trim());
  if (!city) return badRequest('invalid_city', `city must be one of ${cities.map((c) => c.slug).join(', ')}.`, 'city');
  const { body, etag } = await preparedBodies.get(`citywise|${city.slug}`, store.version(), async () =>
    JSON.stringify({ data: toCityEntries(await store.latestCitySheet(city.slug)) }),
  );
  return cachedBody({ headers }, body, { etag });
}
