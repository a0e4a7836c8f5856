/**
 * The data feed's documentation holds: the OpenAPI document validates (3.1, by
 * @seriousme/openapi-schema-validator against the specification's own JSON Schema), is what
 * /api/v1/openapi.json serves, and every route it documents answers as documented on a running
 * fast lane: the 200 in JSON matches its schema (ajv, JSON Schema 2020-12, as OpenAPI 3.1 uses),
 * the 200 in CSV is CSV, and the documented errors come in the Error schema. The recipes of
 * /developers make their requests and get data.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_PLACEHOLDER, recipes } from '../../src/lib/feed/recipes.ts';
import { allSeries, findSeries } from '../../src/lib/seriesCatalog.ts';
import { sessionFromCookie } from '../../src/server/auth/currentSession.ts';
import { hashKey, mintKey } from '../../src/server/feed/keys.ts';
import { openApiDocument } from '../../src/server/feed/openapi.ts';
import { createSiteServer, type SiteServer } from '../../src/server/http/siteServer.ts';
import { createFastLane } from '../../src/server/lanes/fastLane.ts';
import { auth } from '../../src/server/runtime.ts';
import { openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { TEST_DATA_DIR } from './env.ts';
import { userRecordOf } from './helpers.ts';

const doc = openApiDocument();
let store: Store;
let site: SiteServer;
let origin = '';
let key = '';
let urlKey = '';

beforeAll(async () => {
  store = await openStore({ url: sqliteUrlFor(mkdtempSync(join(TEST_DATA_DIR, 'feed-docs-'))) });
  await store.upsertSeries(allSeries);
  const ids = ['feedstock.naphtha.japan', 'fx.usdinr', 'historical.ppRaffia.mumbai'];
  await store.upsertPoints(ids.flatMap((seriesId, i) => ['2026-03-02', '2026-03-03'].map((date, j) => ({ seriesId, date, value: 100 * (i + 1) + j * 0.5 }))));
  await store.createUser(userRecordOf('docs-platinum', { subscribed: true, plan: 'Platinum', expiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString() }));
  for (const allowUrl of [false, true]) {
    const minted = mintKey();
    await store.createApiKey(
      { id: minted.id, ownerUid: 'docs-platinum', name: allowUrl ? 'sheet' : 'program', hash: hashKey(minted.key), createdAt: new Date().toISOString(), urlKey: allowUrl, ratePerMinute: 1000, monthlyQuota: 100_000 },
      { uid: 'docs-platinum', email: null },
    );
    if (allowUrl) urlKey = minted.key;
    else key = minted.key;
  }
  site = createSiteServer({
    lanes: [createFastLane({ store: async () => store, session: (cookie, now, options) => sessionFromCookie({ auth: auth(), store }, cookie, now, options) })],
    fallback: (_req, res) => {
      res.writeHead(599);
      res.end();
    },
  });
  origin = `http://127.0.0.1:${await site.listen(0, '127.0.0.1')}`;
});

afterAll(async () => {
  await site?.stop({ drainMs: 1000, closers: [] });
  await store?.close();
});

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(structuredClone(doc) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('is served at /api/v1/openapi.json, to anyone', async () => {
    const answer = await fetch(`${origin}/api/v1/openapi.json`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('names only series the catalog has in its examples', () => {
    for (const item of Object.values(doc.paths)) {
      for (const param of (item.get as { parameters?: { example?: string }[] }).parameters ?? []) {
        for (const id of param.example?.split(',') ?? []) expect(findSeries(id), id).toBeDefined();
      }
    }
  });
});

describe('every documented route answers as documented', () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'feed', components: doc.components }, 'feed');
  const schemaFor = (ref: string) => ajv.getSchema(`feed${ref}`)!;

  type Param = { name: string; in: string; required?: boolean; example?: string };
  const operations = Object.entries(doc.paths).map(([path, item]) => {
    const operation = item.get as { parameters?: Param[]; responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> };
    return { path, operation };
  });

  /** The URL of an operation from its parameters' examples (required ones only). */
  const urlOf = (path: string, params: readonly Param[] = []) => {
    let resolved = `${doc.servers[0]!.url}${path}`;
    const query = new URLSearchParams();
    for (const p of params) {
      if (p.in === 'path') resolved = resolved.replace(`{${p.name}}`, p.example!);
      else if (p.required) query.set(p.name, p.example!);
    }
    return `${origin}${resolved}${query.size ? `?${query}` : ''}`;
  };

  it.each(operations)('GET $path', async ({ path, operation }) => {
    const url = urlOf(path, operation.parameters);
    const ok = operation.responses['200']!;
    // JSON, against the schema of the 200.
    const json = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    expect(json.status, url).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-quota-limit', 'x-ratelimit-quota-remaining', 'x-ratelimit-quota-reset', 'etag']) {
      expect(json.headers.get(header), header).toBeTruthy();
    }
    const validate = schemaFor(ok.content!['application/json']!.schema.$ref!);
    const body: unknown = await json.json();
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    // CSV, by Accept.
    expect(ok.content!['text/csv']).toBeDefined();
    const csv = await fetch(url, { headers: { authorization: `Bearer ${key}`, accept: 'text/csv' } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect((await csv.text()).split('\r\n').length).toBeGreaterThan(1);
    // 304 as documented.
    expect((await fetch(url, { headers: { authorization: `Bearer ${key}`, 'if-none-match': json.headers.get('etag')! } })).status).toBe(304);
    // The documented errors, in the Error schema: no key (401), a key in the URL for JSON (400).
    const error = schemaFor('#/components/schemas/Error');
    const noKey = await fetch(url);
    expect(noKey.status).toBe(401);
    expect(operation.responses['401']).toBeDefined();
    expect(error(await noKey.json())).toBe(true);
    const inUrl = await fetch(`${url}${url.includes('?') ? '&' : '?'}key=${urlKey}`);
    expect(inUrl.status).toBe(400);
    expect(error(await inUrl.json())).toBe(true);
  });

  it('documents every route the feed answers', () => {
    const documented = Object.keys(doc.paths).map((p) => `/api/v1${p.replace(/\{(\w+)\}/g, '[$1]')}`);
    expect(documented.toSorted()).toEqual(['/api/v1/catalog', '/api/v1/latest', '/api/v1/series/[id]']);
  });
});

describe('the recipes of /developers', () => {
  it.each(recipes('https://polyindex.example'))('$title makes requests that get data', async (recipe) => {
    expect(recipe.code).toContain(recipe.id === 'python' || recipe.id === 'curl' ? 'POLYINDEX_KEY' : KEY_PLACEHOLDER);
    for (const request of recipe.requests) {
      const url = `${origin}${request.path}${request.auth === 'url' ? `&key=${urlKey}` : ''}`;
      const headers: Record<string, string> = request.auth === 'header' ? { authorization: `Bearer ${key}` } : {};
      if (request.accept) headers['accept'] = request.accept;
      const answer = await fetch(url, { headers });
      expect(answer.status, request.path).toBe(200);
      const text = await answer.text();
      expect(text.length).toBeGreaterThan(20);
      // The code itself names the path it documents.
      expect(recipe.code).toContain(request.path.split('?')[0]!.replace('/api/v1', '').replace('.csv', ''));
    }
  });
});
