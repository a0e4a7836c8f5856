/**
 * The data feed described as an OpenAPI 3.1 document (`GET /api/v1/openapi.json`), built from
 * the same facts the endpoints use (the catalog's ids, the units, the limits). /developers
 * renders it; tests validate it (@seriousme/openapi-schema-validator) and walk every route it
 * documents against a running server, checking each answer against its schema.
 */
import { compareUnits } from '../../lib/compare/units.ts';
import { MAX_LATEST_IDS } from '../../lib/feed/format.ts';
import { formatCount } from '../../lib/numbers.ts';
import { PRICE_UNITS } from '../../lib/units.ts';
import { DEFAULT_MONTHLY_QUOTA, DEFAULT_RATE_PER_MINUTE } from '../store/apiKeys.ts';
import { URL_KEY_PARAM } from './keys.ts';

/** An example series id for the document and the recipes. */
export const EXAMPLE_SERIES = 'feedstock.naphtha.japan';
export const EXAMPLE_IDS = `${EXAMPLE_SERIES},fx.usdinr`;

const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });
const isoDate = { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };

const rateHeaders = {
  'X-RateLimit-Limit': { description: 'Requests this key may make a minute.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current minute.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the minute starts again.', schema: { type: 'integer' } },
  'X-RateLimit-Quota-Limit': { description: 'Requests this key may make in a calendar month (India time).', schema: { type: 'integer' } },
  'X-RateLimit-Quota-Remaining': { description: 'Requests left this month.', schema: { type: 'integer' } },
  'X-RateLimit-Quota-Reset': { description: 'Seconds until the month starts again.', schema: { type: 'integer' } },
  ETag: { description: 'Send it back as If-None-Match: an unchanged answer is a 304 without a body.', schema: { type: 'string' } },
};

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

const errors = {
  '400': errorResponse('A query parameter is wrong (`field` names it), or a key was sent in the URL for JSON.'),
  '401': errorResponse('No key, or a key that was revoked, mistyped or never issued.'),
  '403': errorResponse('The owner\'s plan does not include the data feed (or has lapsed), the key may not be used in a URL, or the range reaches beyond the plan\'s history.'),
  '429': {
    description: 'Too many requests this minute (`rate_limited`) or this month (`quota_exceeded`). `Retry-After` says when to try again.',
    headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  '503': errorResponse('A service PolyIndex depends on cannot be reached; try again shortly.'),
};

const csvContent = (description: string) => ({ 'text/csv': { schema: { type: 'string', description } } });

const formatNote = `JSON by default; CSV with \`Accept: text/csv\` or by adding \`.csv\` to the path. CSV is UTF-8 with a byte-order mark, a header row, ISO dates (YYYY-MM-DD) and \`.\` decimals.`;

export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'PolyIndex data feed',
      version: '1.0.0',
      summary: 'Polymer, feedstock and rupee prices for spreadsheets and systems.',
      description: [
        'Every series PolyIndex publishes, for the plans that include the data feed. Make a key on your account\'s API keys page and send it as `Authorization: Bearer <key>`.',
        `Each key may make ${DEFAULT_RATE_PER_MINUTE} requests a minute and ${formatCount(DEFAULT_MONTHLY_QUOTA)} a month; every answer says how many are left (\`X-RateLimit-*\`).`,
        `For spreadsheet functions that cannot send headers (Google Sheets \`IMPORTDATA\`, Excel \`WEBSERVICE\`) a key may be allowed in the URL as \`?${URL_KEY_PARAM}=\`, for CSV only. A URL is kept in browser histories, sheet formulas and server logs: anyone who sees it can use the key until you revoke it.`,
        formatNote,
      ].join('\n\n'),
    },
    servers: [{ url: '/api/v1', description: 'This site' }],
    security: [{ bearerKey: [] }],
    paths: {
      '/catalog': {
        get: {
          operationId: 'catalog',
          summary: 'Every series: its id, name, unit and basis',
          description: formatNote,
          responses: {
            '200': {
              description: 'The catalog.',
              headers: rateHeaders,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Catalog' } }, ...csvContent('Columns: id, name, family, unit, currency, frequency, basis.') },
            },
            '304': { description: 'Not modified (If-None-Match).' },
            ...errors,
          },
        },
      },
      '/series/{id}': {
        get: {
          operationId: 'series',
          summary: 'One series\' prices over a range',
          description: `${formatNote} Without \`from\` and \`to\`: the last 12 months.`,
          parameters: [
            { name: 'id', in: 'path', required: true, description: 'A series id of the catalog.', schema: { type: 'string' }, example: EXAMPLE_SERIES },
            { name: 'from', in: 'query', description: 'First date (YYYY-MM-DD); 12 months before `to` when omitted.', schema: isoDate },
            { name: 'to', in: 'query', description: 'Last date (YYYY-MM-DD); today (India) when omitted.', schema: isoDate },
            {
              name: 'unit',
              in: 'query',
              description: 'native: as quoted; inr_kg: ₹/kg; usd_t: US$/t (converted with the reference rate of each date where the series is in another currency).',
              schema: { type: 'string', enum: [...compareUnits], default: 'native' },
            },
          ],
          responses: {
            '200': {
              description: 'The series.',
              headers: rateHeaders,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Series' } }, ...csvContent('Columns: series, date, value, unit.') },
            },
            '304': { description: 'Not modified (If-None-Match).' },
            '404': errorResponse('No series of that id.'),
            ...errors,
          },
        },
      },
      '/latest': {
        get: {
          operationId: 'latest',
          summary: 'The newest price of each series, with the one before and the change',
          description: formatNote,
          parameters: [
            {
              name: 'ids',
              in: 'query',
              required: true,
              description: `Up to ${MAX_LATEST_IDS} series ids, separated by commas.`,
              schema: { type: 'string' },
              example: EXAMPLE_IDS,
            },
          ],
          responses: {
            '200': {
              description: 'One entry per series, in the order asked.',
              headers: rateHeaders,
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/Latest' } },
                ...csvContent('Columns: id, name, unit, date, value, previous_date, previous_value, change, change_pct.'),
              },
            },
            '304': { description: 'Not modified (If-None-Match).' },
            ...errors,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerKey: { type: 'http', scheme: 'bearer', description: 'An API key (`pik_…`) from your account\'s API keys page.' },
        urlKey: { type: 'apiKey', in: 'query', name: URL_KEY_PARAM, description: 'The same key in the URL: CSV only, and only for a key whose owner allowed it.' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' } },
            },
          },
        },
        Basis: {
          type: 'object',
          required: ['location', 'unit', 'currency', 'decimals', 'kind', 'frequency', 'short'],
          properties: {
            location: { type: 'string' },
            locationKind: { type: 'string' },
            terms: nullable('string'),
            benchmark: nullable('string'),
            taxes: { type: 'string' },
            taxesIncluded: { type: 'boolean' },
            unit: { type: 'string', enum: [...PRICE_UNITS] },
            currency: { type: 'string' },
            decimals: { type: 'integer' },
            kind: { type: 'string' },
            frequency: { type: 'string' },
            published: { type: 'string' },
            source: { type: 'string' },
            quotes: {},
            methodology: { type: 'string' },
            short: { type: 'string', description: 'The basis in a few words, e.g. "CFR Japan · US$/t".' },
          },
        },
        Catalog: {
          type: 'object',
          required: ['series'],
          properties: {
            series: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'name', 'family', 'unit', 'currency', 'frequency', 'basis'],
                properties: {
                  id: { type: 'string' },
                  name: { type: 'string' },
                  family: { type: 'string', enum: ['feedstock', 'historical', 'fx'] },
                  unit: { type: 'string', enum: [...PRICE_UNITS] },
                  currency: { type: 'string' },
                  frequency: { type: 'string', enum: ['daily', 'weekly'] },
                  basis: { $ref: '#/components/schemas/Basis' },
                },
              },
            },
          },
        },
        Series: {
          type: 'object',
          required: ['id', 'name', 'unit', 'basis', 'from', 'to', 'points'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            unit: { type: 'string', description: 'The unit of `value`.' },
            conversion: nullable('string', { description: 'How the values were converted; null when as quoted.' }),
            notConverted: nullable('string', { description: 'Why the unit asked could not be given (the values are as quoted).' }),
            basis: { $ref: '#/components/schemas/Basis' },
            from: isoDate,
            to: isoDate,
            points: {
              type: 'array',
              items: { type: 'object', required: ['date', 'value'], properties: { date: isoDate, value: { type: 'number' } } },
            },
          },
        },
        Latest: {
          type: 'object',
          required: ['series'],
          properties: {
            series: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'name', 'unit', 'date', 'value', 'previousDate', 'previousValue', 'change', 'changePct'],
                properties: {
                  id: { type: 'string' },
                  name: { type: 'string' },
                  unit: { type: 'string' },
                  date: nullable('string', { format: 'date' }),
                  value: nullable('number'),
                  previousDate: nullable('string', { format: 'date' }),
                  previousValue: nullable('number'),
                  change: nullable('number'),
                  changePct: nullable('number', { description: 'Per cent.' }),
                },
              },
            },
          },
        },
      },
    },
  };
}
