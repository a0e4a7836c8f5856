/**
 * GET /api/citywise → {data:[{city, call, entries:[{type, display, call, price, date}]}]} (the
 * first city is the default); GET /api/citywise/{city}[?date=YYYY-MM-DD] → {data:[entries]}: the
 * city's newest sheet, or that date's (the city-wise history; none that day is an empty list).
 */
import { cities, findCity } from '../../lib/catalog.ts';
import { toCityEntries, toCityRecords } from '../../lib/citywise.ts';
import { parseIsoDate } from '../../lib/dates.ts';
import { requireDataAccess } from '../http/access.ts';
import type { ApiAnswer } from '../http/answer.ts';
import { badRequest, preparedAnswer } from '../http/json.ts';
import type { EndpointContext } from '../edge/endpoint.ts';
import { preparedBodiesOf } from './prepared.ts';

export async function citywise({ locals, store: open, headers }: EndpointContext): Promise<ApiAnswer> {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  const store = await open();
  const { body, etag } = await preparedBodiesOf(store).get('citywise', store.version(), async () =>
    JSON.stringify({ data: toCityRecords(await store.latestCitySheets()) }),
  );
  return preparedAnswer({ headers }, body, { etag });
}

export async function citywiseCity({ locals, store: open, headers, params, url }: EndpointContext): Promise<ApiAnswer> {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  const city = findCity(params['city']?.trim());
  if (!city) return badRequest('invalid_city', `city must be one of ${cities.map((c) => c.slug).join(', ')}.`, 'city');
  const askedDate = url.searchParams.get('date');
  const date = askedDate === null || askedDate === '' ? null : parseIsoDate(askedDate);
  if (askedDate && !date) return badRequest('invalid_input', 'date must be a calendar date written YYYY-MM-DD.', 'date');
  const store = await open();
  const { body, etag } = await preparedBodiesOf(store).get(`citywise|${city.slug}|${date ?? 'latest'}`, store.version(), async () =>
    JSON.stringify({ data: toCityEntries(date ? await store.citySheetOn(city.slug, date) : await store.latestCitySheet(city.slug)) }),
  );
  return preparedAnswer({ headers }, body, { etag });
}
