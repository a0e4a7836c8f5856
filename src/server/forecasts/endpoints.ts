/**
 * The desk's forecast endpoints (editors and administrators; the posts' conventions):
 *
 *   GET  /api/admin/forecasts?series=   the forecasts on a series (desk and baseline), newest first, with their scores
 *   POST /api/admin/forecasts           {seriesId, horizon, direction, low, high, rationale, supersedes?} → 201 {forecast, auditId}
 *   GET  /api/admin/forecasts/{id}      one forecast, its score and the forecasts that correct it
 *
 * Nothing edits or deletes a forecast: a correction is a new one (`supersedes`). Bad input is a
 * 400 naming the field, a refusal that depends on the store's state (no price yet, a call that
 * cannot be corrected) a 409; nothing is written then. A publication is audited in its commit.
 */
import { z } from 'astro/zod';
import { DeskForecastInput } from '../../lib/forecasts/input.ts';
import { findSeries } from '../../lib/seriesCatalog.ts';
import { endpoint, type EndpointHandler } from '../edge/endpoint.ts';
import { json, jsonError, parseOr400, readJson } from '../http/responses.ts';
import { requireEditor } from '../admin/guard.ts';
import { store } from '../runtime.ts';
import { forecastWritesSettled } from './priceWrites.ts';
import { forecastNow } from './clock.ts';
import { publishDeskForecast } from './publish.ts';

/** A forecast's JSON body: 4,000 characters of rationale at three bytes each, and the rest. */
const MAX_FORECAST_BODY_BYTES = 16 * 1024;

const SeriesQuery = z.object({ series: z.string({ error: 'Name the series: ?series=<id>.' }).trim().refine((id) => findSeries(id) !== undefined, 'There is no such series.') });

const publish: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const input = await readJson(context.request, DeskForecastInput, { maxBytes: MAX_FORECAST_BODY_BYTES, tooLarge: 'The forecast is too large.' });
  if (!input.ok) return input.response;
  const record = context.locals.session?.record;
  const name = record?.displayName?.trim() || record?.email || gate.actor.email || 'PolyIndex price desk';
  const db = await store();
  // A price write's baselines and scores finish first: the base is the price as it stands.
  await forecastWritesSettled();
  const outcome = await publishDeskForecast(db, input.data, { actor: gate.actor, name: name.slice(0, 200), now: forecastNow() });
  if (!outcome.ok) return jsonError(outcome.status, outcome.refusal.code, outcome.refusal.message, outcome.refusal.field);
  return json({ forecast: outcome.forecast, auditId: outcome.auditId }, 201);
};

const list: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const query = parseOr400(SeriesQuery, { series: context.url.searchParams.get('series') ?? undefined });
  if (!query.ok) return query.response;
  const db = await store();
  const [forecasts, scores] = await Promise.all([db.listForecasts(query.data.series), db.listScores(query.data.series)]);
  const byId = new Map(scores.map((s) => [s.forecastId, s]));
  return json({ forecasts: forecasts.toReversed().map((f) => ({ ...f, score: byId.get(f.id) ?? null })) });
};

const one: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const db = await store();
  const id = context.params['id'] ?? '';
  const forecast = id.length <= 200 ? await db.getForecast(id) : null;
  if (!forecast) return jsonError(404, 'not_found', 'There is no such forecast.');
  const scores = await db.listScores(forecast.seriesId);
  const corrections = (await db.listForecasts(forecast.seriesId)).filter((f) => f.supersedes === forecast.id);
  return json({ forecast, score: scores.find((s) => s.forecastId === forecast.id) ?? null, correctedBy: corrections.map((f) => f.id) });
};

/** POST /api/admin/forecasts: the desk publishes a forecast. */
export const publishForecast = endpoint('editor', publish);
/** GET /api/admin/forecasts?series=: the forecasts on a series. */
export const listForecasts = endpoint('editor', list);
/** GET /api/admin/forecasts/{id}: one forecast. */
export const readForecast = endpoint('editor', one);
