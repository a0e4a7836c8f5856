/**
 * The data feed's reads (`/api/v1/**`): the catalog, one series over a range, the latest prices;
 * JSON by default, CSV by `.csv` or `Accept: text/csv` (src/lib/feed/format.ts). Each is a row of
 * the fast lane's table (src/server/api/routes.ts) and a route file, behind the one gate: who is
 * calling (a key or a cookie) and whether their plan includes the feed is the gate's and the
 * policy's (`feed`); what a key may do with its answer is here: a key in the URL only when its
 * owner allowed it and only for CSV, then one count against its meter (rate and monthly quota,
 * leased from the store, so every instance counts together: ./meterLeases.ts), with the `X-RateLimit-*` headers.
 */
import { z } from 'astro/zod';
import { hasDataFeed } from '../../lib/access/policy.ts';
import { catalogBody, feedFormatOf, FEED_CSV_MEDIA_TYPE, FEED_JSON_MEDIA_TYPE, latestBody, latestEntry, MAX_LATEST_IDS, seriesBody, withoutCsvSuffix, type FeedFormat } from '../../lib/feed/format.ts';
import { lineDecimals } from '../../lib/compare/comparison.ts';
import { findSeries, type SeriesDef } from '../../lib/seriesCatalog.ts';
import { endpoint, type EndpointContext, type EndpointHandler } from '../edge/endpoint.ts';
import type { ApiAnswer, WireAnswer } from '../http/answer.ts';
import { preparedAnswer } from '../http/json.ts';
import { parseQuery } from '../http/query.ts';
import { jsonError, unauthenticated } from '../http/responses.ts';
import type { MeterReading } from '../store/apiKeys.ts';
import { preparedBodiesOf } from '../api/prepared.ts';
import { parseSeriesQuery, readComparison } from '../api/series.ts';
import { withoutKey } from './keys.ts';
import { metersOf } from './meterLeases.ts';
import { openApiDocument } from './openapi.ts';

/** A feed answer may be kept by the caller's own client only, and checked again (ETag) before reuse. */
export const FEED_CACHE = 'private, no-cache';
/** Feed answers differ by who asks and in which format. */
const FEED_VARY = 'Authorization, Cookie, Accept';

type FeedHandler = (context: EndpointContext, format: FeedFormat) => Promise<ApiAnswer> | ApiAnswer;

/** The `X-RateLimit-*` headers of a metered answer. */
export function rateLimitHeaders(reading: MeterReading): Record<string, string> {
  return {
    'x-ratelimit-limit': String(reading.rate.limit),
    'x-ratelimit-remaining': String(reading.rate.remaining),
    'x-ratelimit-reset': String(reading.rate.resetSeconds),
    'x-ratelimit-quota-limit': String(reading.quota.limit),
    'x-ratelimit-quota-remaining': String(reading.quota.remaining),
    'x-ratelimit-quota-reset': String(reading.quota.resetSeconds),
  };
}

/** Prepared answers as the feed sends them (its Vary), made once per prepared answer: both are shared. */
const feedVariants = new WeakMap<WireAnswer, WireAnswer>();
function feedVariantOf(answer: WireAnswer): WireAnswer {
  let variant = feedVariants.get(answer);
  if (!variant) feedVariants.set(answer, (variant = Object.freeze({ status: answer.status, headers: Object.freeze({ ...answer.headers, vary: FEED_VARY }), body: answer.body })));
  return variant;
}

/** The feed's answer: its Vary, and a metered request's counts (a prepared answer keeps its shared headers and carries them as `added`). */
function feedAnswerOf(answer: ApiAnswer, rate: Record<string, string> | null): ApiAnswer {
  if (answer instanceof Response) {
    answer.headers.set('vary', FEED_VARY);
    for (const [name, value] of Object.entries(rate ?? {})) answer.headers.set(name, value);
    return answer;
  }
  const variant = feedVariantOf(answer);
  return rate ? { status: variant.status, headers: variant.headers, body: variant.body, added: rate } : variant;
}

/**
 * A read of the feed: the key rules, the meter, then the handler in the format asked. The
 * policy let the caller in already; the plan is asked again here (defence in depth).
 */
export function feedRead(handler: FeedHandler): EndpointHandler {
  return async (context) => {
    const session = context.locals.session;
    if (!session) return unauthenticated();
    if (!hasDataFeed(session.record ? session : null, new Date())) {
      return jsonError(403, 'forbidden', 'Your plan does not include the data feed, or it has lapsed.');
    }
    const format = feedFormatOf(context.url.pathname, context.headers.get('Accept'));
    const key = session.apiKey;
    let reading: MeterReading | null = null;
    if (key) {
      if (key.place === 'url' && format !== 'csv') {
        return jsonError(400, 'key_in_url', 'A key in the URL is accepted for CSV only. Send it as the header Authorization: Bearer <key>.', 'key');
      }
      if (key.place === 'url' && !key.record.urlKey) {
        return jsonError(403, 'url_key_off', 'This key may not be used in a URL. Its owner can allow that on the API keys page, or send it as the header Authorization: Bearer <key>.', 'key');
      }
      reading = await metersOf(await context.store()).take(key.record, new Date());
      if (!reading.allowed) {
        const refused = reading.limit === 'quota'
          ? jsonError(429, 'quota_exceeded', `This key has made its ${reading.quota.limit} requests for the month. The quota starts again on the 1st (India time).`)
          : jsonError(429, 'rate_limited', `This key may make ${reading.rate.limit} requests a minute. Try again in ${reading.retryAfterSeconds} s.`);
        refused.headers.set('Retry-After', String(reading.retryAfterSeconds));
        for (const [name, value] of Object.entries(rateLimitHeaders(reading))) refused.headers.set(name, value);
        return refused;
      }
    }
    const answer = await handler(context, format);
    return feedAnswerOf(answer, reading ? rateLimitHeaders(reading) : null);
  };
}

/** A body in the format's media type, with its ETag (304 when the client has it); `etag` when the body cache knows it already. */
const feedAnswer = (context: EndpointContext, body: string, format: FeedFormat, etag?: string): WireAnswer =>
  preparedAnswer(context, body, { cacheControl: FEED_CACHE, contentType: format === 'csv' ? FEED_CSV_MEDIA_TYPE : FEED_JSON_MEDIA_TYPE, ...(etag ? { etag } : {}) });

const catalogBodies: Partial<Record<FeedFormat, string>> = {};
/** GET /api/v1/catalog: every series with its id, name, unit and basis. */
const catalogRead: FeedHandler = (context, format) => feedAnswer(context, (catalogBodies[format] ??= catalogBody(format)), format);

/** Input echoed in a message never carries a key (one pasted in the wrong place). */
const echo = (text: string): string => withoutKey(text).slice(0, 80);

const notFoundSeries = (id: string): Response => jsonError(404, 'not_found', `There is no series “${echo(id)}”. GET /api/v1/catalog lists them.`, 'id');

/** GET /api/v1/series/{id}?from&to&unit: one series' prices in a range (the last 12 months by default), as quoted or converted. */
const seriesRead: FeedHandler = async (context, format) => {
  const id = withoutCsvSuffix(context.params['id'] ?? '');
  const series = findSeries(id);
  if (!series) return notFoundSeries(id);
  const query = new URL(context.url);
  query.searchParams.set('ids', id);
  const parsed = parseSeriesQuery(query);
  if (!parsed.ok) return parsed.response;
  const { options } = parsed.data;
  const store = await context.store();
  const cacheKey = ['series', format, id, options.range.from, options.range.to, options.unit].join('|');
  const { body, etag } = await preparedBodiesOf(store).get(cacheKey, store.version(), async () => {
    const comparison = await readComparison(store, { series: [series], options: { ...options, view: 'prices', ma: 0 } });
    const line = comparison.lines[0]!;
    return seriesBody(
      {
        series,
        from: comparison.range.from,
        to: comparison.range.to,
        unit: line.unit,
        conversion: line.conversion.fx === 'none' && line.conversion.multiplier === 1 ? null : line.conversion.formula,
        notConverted: line.notConverted?.message ?? null,
        decimals: lineDecimals(line, comparison),
        points: line.points.filter((p) => p.date >= comparison.range.from),
      },
      format,
    );
  });
  return feedAnswer(context, body, format, etag);
};

const latestQuery = z.object({
  ids: z
    .string({ error: `ids is required: up to ${MAX_LATEST_IDS} series ids separated by commas (GET /api/v1/catalog lists them).` })
    .transform((text, ctx): SeriesDef[] => {
      const ids = text.split(',').map((id) => id.trim());
      if (ids.some((id) => id === '')) ctx.addIssue({ code: 'custom', message: 'ids must name each series once, with no empty entries.' });
      else if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: 'ids must name each series once.' });
      else if (ids.length > MAX_LATEST_IDS) ctx.addIssue({ code: 'custom', message: `ids may name at most ${MAX_LATEST_IDS} series.` });
      const unknown = ids.find((id) => id !== '' && !findSeries(id));
      if (unknown !== undefined) ctx.addIssue({ code: 'custom', message: `ids: there is no series “${echo(unknown)}”.` });
      return ctx.issues?.length ? z.NEVER : ids.map((id) => findSeries(id)!);
    }),
});

/**
 * The `ids` parameter of a query, as `URLSearchParams` reads it (the first one; '' when it has no
 * value; null when absent). A query of plain text (no escapes, no '+', as a sheet sends it) is
 * read without building a URLSearchParams at every request.
 */
export function idsParamOf(search: string): string | null {
  if (search.includes('%') || search.includes('+')) return new URLSearchParams(search).get('ids');
  for (const pair of search.slice(search.startsWith('?') ? 1 : 0).split('&')) {
    if (pair.startsWith('ids=')) return pair.slice(4);
    if (pair === 'ids') return '';
  }
  return null;
}

/**
 * The series of an `ids` list already checked, by its text: a sheet asks the same list all day,
 * and zod's check cost more than the rest of the answer. Bounded; failures are not kept. Keyed by
 * `ids` alone, never the whole query (which may hold a URL key).
 */
const checkedIds = new Map<string, readonly SeriesDef[]>();
const CHECKED_IDS_MAX = 500;
function latestSeriesOf(url: URL): { readonly ok: true; readonly series: readonly SeriesDef[] } | { readonly ok: false; readonly response: Response } {
  const ids = idsParamOf(url.search);
  const known = ids === null ? undefined : checkedIds.get(ids);
  if (known) return { ok: true, series: known };
  const parsed = parseQuery(url, latestQuery);
  if (!parsed.ok) return parsed;
  if (ids !== null) {
    if (checkedIds.size >= CHECKED_IDS_MAX) checkedIds.delete(checkedIds.keys().next().value!);
    checkedIds.set(ids, parsed.data.ids);
  }
  return { ok: true, series: parsed.data.ids };
}

/** The ids of a checked list as one text (the body cache's key), made once per list: the lists are kept above. */
const idLists = new WeakMap<readonly SeriesDef[], string>();
function idListOf(series: readonly SeriesDef[]): string {
  let list = idLists.get(series);
  if (list === undefined) idLists.set(series, (list = series.map((s) => s.id).join(',')));
  return list;
}

/** GET /api/v1/latest?ids=a,b: the newest price of each series, with the one before and the change. */
const latestRead: FeedHandler = async (context, format) => {
  const checked = latestSeriesOf(context.url);
  if (!checked.ok) return checked.response;
  const { series } = checked;
  const store = await context.store();
  const cacheKey = `latest|${format}|${idListOf(series)}`;
  const { body, etag } = await preparedBodiesOf(store).get(cacheKey, store.version(), async () => {
    const points = await Promise.all(series.map((s) => store.latestPoints(s.id, 2)));
    return latestBody(series.map((s, i) => latestEntry(s, points[i]!)), format);
  });
  return feedAnswer(context, body, format, etag);
};

export const feedCatalog = endpoint('feed', feedRead(catalogRead));
export const feedSeries = endpoint('feed', feedRead(seriesRead));
export const feedLatest = endpoint('feed', feedRead(latestRead));

let openApiBody: string | null = null;
/** GET /api/v1/openapi.json: the feed described (OpenAPI 3.1), public. */
export const feedOpenApi = endpoint('public', (context) =>
  preparedAnswer(context, (openApiBody ??= JSON.stringify(openApiDocument())), { cacheControl: 'public, max-age=300', contentType: FEED_JSON_MEDIA_TYPE }),
);
