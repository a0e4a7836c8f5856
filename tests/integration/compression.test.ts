/**
 * Compression in every lane (src/server/edge/compression.ts): the node:http fast lane's prepared
 * and per-request answers, the Astro lane's answers (through src/middleware.ts, per content type)
 * and the built files (src/server/http/staticFiles.ts). Each compressed body is decoded and
 * compared with the identity bytes; HEAD, 304 with If-None-Match, `identity` and `br;q=0` too.
 * Requests go through node:http without decoding, so the bytes on the wire are what is checked.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRequest } from '../../src/middleware.ts';
import { sessionFromCookie } from '../../src/server/auth/currentSession.ts';
import { SESSION_COOKIE, sessionVerifier, startSession } from '../../src/server/auth/sessions.ts';
import { MIN_COMPRESSED_BYTES } from '../../src/server/edge/compression.ts';
import { createSiteServer, type SiteServer } from '../../src/server/http/siteServer.ts';
import { createStaticFiles } from '../../src/server/http/staticFiles.ts';
import { createFastLane } from '../../src/server/lanes/fastLane.ts';
import { auth, store } from '../../src/server/runtime.ts';
import { apiContext, emulatorSignUp, uniqueEmail } from './helpers.ts';
import { rawRequest } from './helpers.ts';

const raw = rawRequest;

const decoded = (answer: { readonly headers: { get?: unknown } & Record<string, unknown>; readonly body: Buffer }, encoding: string | null | undefined): Buffer =>
  encoding === 'br' ? brotliDecompressSync(answer.body) : encoding === 'gzip' ? gunzipSync(answer.body) : answer.body;

const varies = (vary: string | null | undefined) => (vary ?? '').toLowerCase().split(',').map((name) => name.trim()).includes('accept-encoding');

let site: SiteServer;
let base: string;
let premium: string;
let files: string;

beforeAll(async () => {
  const db = await store();
  const email = uniqueEmail('compression-premium');
  const account = await emulatorSignUp(email);
  const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
  await db.createUser({ uid: account.uid, displayName: 'Premium', email, phone: null, photoURL: null, role: 'user', subscribed: true, plan: 'Premium', createdAt: '01-01-2025', expiresAt: inAYear });
  premium = `${SESSION_COOKIE}=${(await startSession(auth(), account.idToken)).cookie}`;

  files = mkdtempSync(join(tmpdir(), 'compression-files-'));
  mkdirSync(join(files, '_astro'));
  mkdirSync(join(files, 'pricing'));
  const text = (line: string) => line.repeat(Math.ceil((4 * MIN_COMPRESSED_BYTES) / line.length));
  writeFileSync(join(files, 'pricing', 'index.html'), `<!doctype html><title>Plans</title>${text('<tr><td>Premium</td><td>₹ 24,000</td></tr>\n')}`);
  writeFileSync(join(files, '_astro', 'app.abc123.js'), text('export const price = (value) => value.toFixed(2);\n'));
  writeFileSync(join(files, '_astro', 'site.abc123.css'), text('.ticker { font-size: 13px; color: #123456; }\n'));
  writeFileSync(join(files, 'favicon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${text('<path d="M0 0L10 10"/>')}</svg>`);
  writeFileSync(join(files, 'tiny.css'), 'body{margin:0}');
  writeFileSync(join(files, 'photo.png'), Buffer.alloc(4 * MIN_COMPRESSED_BYTES, 7));

  site = createSiteServer({
    lanes: [createFastLane({ store, session: async (cookie, now) => sessionFromCookie({ auth: auth(), store: await store() }, cookie, now), loopbackOnly: () => sessionVerifier(auth()).emulator })],
    staticFiles: createStaticFiles(files),
    fallback: (_req, res) => {
      res.writeHead(599);
      res.end();
    },
  });
  base = `http://127.0.0.1:${await site.listen(0, '127.0.0.1')}`;
});

afterAll(async () => {
  await site.stop({ drainMs: 1000, closers: [] });
  rmSync(files, { recursive: true, force: true });
});

describe('the fast lane', () => {
  const path = `/api/feedstock?name=Naphtha&country=japan&type=Daily&year=${new Date().getFullYear() - 1}`;

  it.each(['br', 'gzip'] as const)('sends a prepared JSON body in %s, the same bytes decoded, the compressed bytes kept', async (coding) => {
    const identity = await raw(`${base}${path}`, { cookie: premium, 'accept-encoding': 'identity' });
    expect(identity.status).toBe(200);
    expect(identity.body.length).toBeGreaterThan(MIN_COMPRESSED_BYTES);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers['etag']).toMatch(/^"/);
    expect(varies(identity.headers['vary'])).toBe(true);

    const first = await raw(`${base}${path}`, { cookie: premium, 'accept-encoding': coding });
    expect(first.headers['content-encoding']).toBe(coding);
    expect(first.headers['content-type']).toBe(identity.headers['content-type']);
    expect(Number(first.headers['content-length'])).toBe(first.body.length);
    expect(first.body.length).toBeLessThan(identity.body.length / 2);
    expect(decoded(first, coding).equals(identity.body)).toBe(true);
    // Vary keeps Cookie (a gated answer) and adds Accept-Encoding; the validator is weak.
    expect(first.headers['vary']).toMatch(/Cookie/);
    expect(varies(first.headers['vary'])).toBe(true);
    expect(first.headers['etag']).toBe(`W/${identity.headers['etag']}`);
    const again = await raw(`${base}${path}`, { cookie: premium, 'accept-encoding': coding });
    expect(again.body.equals(first.body)).toBe(true);
  });

  it('honours q-values: br;q=0 gets gzip, both refused gets identity', async () => {
    expect((await raw(`${base}${path}`, { cookie: premium, 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await raw(`${base}${path}`, { cookie: premium, 'accept-encoding': 'gzip;q=0.5, br;q=0.9' })).headers['content-encoding']).toBe('br');
    const refused = await raw(`${base}${path}`, { cookie: premium, 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.toString('utf8')).toMatch(/^[[{]/);
  });

  it('answers 304 to the weak validator with the same validator, no body and no type', async () => {
    const first = await raw(`${base}${path}`, { cookie: premium, 'accept-encoding': 'br' });
    const etag = first.headers['etag']!;
    expect(etag).toMatch(/^W\//);
    const revalidated = await raw(`${base}${path}`, { cookie: premium, 'accept-encoding': 'br', 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers['etag']).toBe(etag);
    expect(revalidated.headers['content-type']).toBeUndefined();
    expect(revalidated.headers['content-encoding']).toBeUndefined();
    expect(varies(revalidated.headers['vary'])).toBe(true);
  });

  it('leaves a small answer as it is, and still says it varies', async () => {
    const refusal = await raw(`${base}/api/feedstock?name=Nope`, { cookie: premium, 'accept-encoding': 'br' });
    expect(refusal.status).toBe(400);
    expect(refusal.body.length).toBeLessThan(MIN_COMPRESSED_BYTES);
    expect(refusal.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refusal.body.toString('utf8'))).toHaveProperty('error');
  });
});

describe('the built files', () => {
  it.each([
    ['/pricing', 'text/html'],
    ['/pricing/', 'text/html'],
    ['/_astro/app.abc123.js', 'text/javascript'],
    ['/_astro/site.abc123.css', 'text/css'],
    ['/favicon.svg', 'image/svg+xml'],
  ])('%s (%s) in br and gzip, from memory, the same bytes decoded', async (path, type) => {
    const identity = await raw(`${base}${path}`, { 'accept-encoding': 'identity' });
    expect(identity.status).toBe(200);
    expect(identity.headers['content-type']).toContain(type);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(varies(identity.headers['vary'])).toBe(true);
    for (const coding of ['br', 'gzip'] as const) {
      const answer = await raw(`${base}${path}`, { 'accept-encoding': `${coding}` });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(coding);
      expect(answer.headers['content-type']).toContain(type);
      expect(varies(answer.headers['vary'])).toBe(true);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['etag']).toBe(identity.headers['etag']);
      expect(answer.headers['cache-control']).toBe(identity.headers['cache-control']);
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(decoded(answer, coding).equals(identity.body)).toBe(true);
    }
  });

  it('HEAD has the GET headers and no body', async () => {
    const get = await raw(`${base}/_astro/app.abc123.js`, { 'accept-encoding': 'br' });
    const head = await raw(`${base}/_astro/app.abc123.js`, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['content-encoding', 'content-length', 'content-type', 'etag', 'vary', 'cache-control']) expect(head.headers[name]).toBe(get.headers[name]);
    expect(get.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 304 to If-None-Match, compressed or not', async () => {
    const first = await raw(`${base}/favicon.svg`, { 'accept-encoding': 'gzip' });
    for (const encoding of ['gzip', 'identity']) {
      const again = await raw(`${base}/favicon.svg`, { 'accept-encoding': encoding, 'if-none-match': first.headers['etag']! });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(varies(again.headers['vary'])).toBe(true);
    }
  });

  it('sends identity for br;q=0, gzip;q=0, a Range request, a small file and an image', async () => {
    const refused = await raw(`${base}/favicon.svg`, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.toString('utf8')).toMatch(/^<svg/);
    expect((await raw(`${base}/favicon.svg`, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    const range = await raw(`${base}/favicon.svg`, { 'accept-encoding': 'br', range: 'bytes=0-9' });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.body.toString('utf8')).toBe('<svg xmlns');
    const tiny = await raw(`${base}/tiny.css`, { 'accept-encoding': 'br' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(varies(tiny.headers['vary'])).toBe(true);
    const png = await raw(`${base}/photo.png`, { 'accept-encoding': 'br' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.length).toBe(4 * MIN_COMPRESSED_BYTES);
    expect(varies(png.headers['vary'])).toBe(false);
  });
});

describe('the Astro lane (src/middleware.ts), per content type', () => {
  const line = 'Naphtha CFR Japan 612.50 USD/t; PP Raffia Mumbai ₹ 98.50/kg\n';
  const bodyOf = (type: string) => {
    const text = line.repeat(80);
    if (type.includes('json')) return JSON.stringify({ rows: text.split('\n') });
    if (type.includes('svg')) return `<svg xmlns="http://www.w3.org/2000/svg"><text>${text}</text></svg>`;
    if (type.includes('xml')) return `<?xml version="1.0"?><rss><channel><title>${text}</title></channel></rss>`;
    return text;
  };
  /** A public page's answer of `type` through the whole middleware, as Astro would run it. */
  const through = async (type: string, headers: Record<string, string>, method = 'GET', cacheControl = 'public, max-age=60') => {
    const { context } = apiContext('/news/search?q=naphtha', { headers, method, routePattern: '/news/search' });
    const response = (await onRequest(context, async () => new Response(method === 'HEAD' ? null : bodyOf(type), { headers: { 'Content-Type': type, 'Cache-Control': cacheControl } }))) as Response;
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };

  it.each([
    'text/html; charset=utf-8',
    'application/json; charset=utf-8',
    'text/css; charset=utf-8',
    'text/javascript; charset=utf-8',
    'image/svg+xml',
    'application/rss+xml; charset=utf-8',
    'application/xml; charset=utf-8',
  ])('%s: br, gzip and identity, the same bytes decoded', async (type) => {
    const expected = Buffer.from(bodyOf(type));
    const identity = await through(type, { 'accept-encoding': 'identity' });
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(identity.body.equals(expected)).toBe(true);
    expect(varies(identity.headers.get('vary'))).toBe(true);
    for (const coding of ['br', 'gzip'] as const) {
      const answer = await through(type, { 'accept-encoding': coding === 'br' ? 'gzip;q=0.5, br' : 'br;q=0, gzip' });
      expect(answer.headers.get('content-encoding')).toBe(coding);
      expect(answer.headers.get('content-type')).toBe(type);
      expect(varies(answer.headers.get('vary'))).toBe(true);
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(Number(answer.headers.get('content-length'))).toBe(answer.body.length);
      expect(answer.body.length).toBeLessThan(expected.length / 3);
      expect(decoded({ headers: {}, body: answer.body }, coding).equals(expected)).toBe(true);
    }
  });

  it('HEAD: the GET headers (the compressed length), no body', async () => {
    const get = await through('text/html; charset=utf-8', { 'accept-encoding': 'br' });
    const { context } = apiContext('/news/search?q=naphtha', { headers: { 'accept-encoding': 'br' }, method: 'HEAD', routePattern: '/news/search' });
    const head = (await onRequest(context, async () => new Response(bodyOf('text/html; charset=utf-8'), { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=60' } }))) as Response;
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(head.headers.get('content-encoding')).toBe('br');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
  });

  it('a public page: the weak validator, and 304 for it with the same validator', async () => {
    const first = await through('text/html; charset=utf-8', { 'accept-encoding': 'br' });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    const again = await through('text/html; charset=utf-8', { 'accept-encoding': 'br', 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('content-type')).toBeNull();
    const identity = await through('text/html; charset=utf-8', {});
    expect(identity.headers.get('etag')).toBe(etag!.slice(2));
  });

  it('never compresses twice, nor no-transform, nor a small body', async () => {
    const { context } = apiContext('/news/search?q=naphtha', { headers: { 'accept-encoding': 'br' }, routePattern: '/news/search' });
    const gz = (await import('node:zlib')).gzipSync(Buffer.from(line.repeat(80)));
    const already = (await onRequest(context, async () => new Response(Uint8Array.from(gz), { headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' } }))) as Response;
    expect(already.headers.get('content-encoding')).toBe('gzip');
    expect(Buffer.from(await already.arrayBuffer()).equals(gz)).toBe(true);
    const noTransform = await through('text/html', { 'accept-encoding': 'br' }, 'GET', 'public, no-transform');
    expect(noTransform.headers.get('content-encoding')).toBeNull();
    const { context: small } = apiContext('/news/search?q=naphtha', { headers: { 'accept-encoding': 'br' }, routePattern: '/news/search' });
    const tiny = (await onRequest(small, async () => new Response('<p>hi</p>', { headers: { 'Content-Type': 'text/html' } }))) as Response;
    expect(tiny.headers.get('content-encoding')).toBeNull();
    expect(await tiny.text()).toBe('<p>hi</p>');
  });
});
