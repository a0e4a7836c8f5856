/**
 * The compression rules (src/server/edge/compression.ts): which coding an Accept-Encoding asks
 * for (q-values, `*`, refusals), what is compressed, and the headers that go with it.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compress, isCompressibleType, keptVariant, MIN_COMPRESSED_BYTES, negotiateEncoding, planForRecord, varyWithEncoding } from '../../src/server/edge/compression.ts';

describe('negotiateEncoding', () => {
  it.each([
    [null, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0', null],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['gzip;q=0, br;q=0', null],
    ['*', 'br'],
    ['*;q=0', null],
    ['gzip, *;q=0', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['identity;q=1, *;q=0', null],
    ['deflate', null],
    ['BR;Q=1', 'br'],
    ['gzip; q=0.001', 'gzip'],
    ['gzip;q=abc', null],
  ] as const)('%j → %s', (header, coding) => expect(negotiateEncoding(header)).toBe(coding));
});

describe('what is compressed', () => {
  it.each([
    ['text/html; charset=utf-8', true],
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['text/css', true],
    ['text/javascript', true],
    ['application/javascript', true],
    ['image/svg+xml', true],
    ['application/xml', true],
    ['text/xml', true],
    ['application/rss+xml; charset=utf-8', true],
    ['application/manifest+json', true],
    ['text/plain', true],
    ['image/png', false],
    ['image/webp', false],
    ['text/csv', false],
    ['application/pdf', false],
    ['application/octet-stream', false],
    ['text/event-stream', false],
    ['font/woff2', false],
    [null, false],
  ] as const)('%s: %s', (type, expected) => expect(isCompressibleType(type)).toBe(expected));

  const big = MIN_COMPRESSED_BYTES;
  const html = { 'content-type': 'text/html', etag: '"abc"', 'cache-control': 'public, max-age=60' };

  it('compresses a large enough body in the coding asked for, with Vary and a weak validator', () => {
    expect(planForRecord('br', 200, html, big)).toEqual({ coding: 'br', set: { vary: 'Accept-Encoding', etag: 'W/"abc"', 'content-encoding': 'br' }, remove: ['content-length'] });
    expect(planForRecord('gzip', 200, { ...html, vary: 'Cookie' }, big).set).toEqual({ vary: 'Cookie, Accept-Encoding', etag: 'W/"abc"', 'content-encoding': 'gzip' });
  });

  it('sends a small body as it is, still with Vary and the same weak validator (so its 304 agrees)', () => {
    expect(planForRecord('br', 200, html, big - 1)).toEqual({ coding: null, set: { vary: 'Accept-Encoding', etag: 'W/"abc"' }, remove: [] });
    expect(planForRecord('br', 304, html, null)).toEqual({ coding: null, set: { vary: 'Accept-Encoding', etag: 'W/"abc"' }, remove: ['content-type', 'content-length'] });
  });

  it('keeps the strong validator for a request that takes identity only', () => {
    for (const header of [null, 'identity', 'br;q=0, gzip;q=0']) expect(planForRecord(header, 200, html, 10 * big)).toEqual({ coding: null, set: { vary: 'Accept-Encoding' }, remove: [] });
  });

  it('never compresses twice, nor what says no-transform, nor other statuses and types', () => {
    expect(planForRecord('br', 200, { ...html, 'content-encoding': 'gzip' }, big).coding).toBeNull();
    expect(planForRecord('br', 200, { ...html, 'content-encoding': 'gzip' }, big).set).toEqual({});
    expect(planForRecord('br', 200, { ...html, 'cache-control': 'public, no-transform' }, big).set).toEqual({});
    expect(planForRecord('br', 206, html, big).set).toEqual({});
    expect(planForRecord('br', 204, html, big).set).toEqual({});
    // Error pages are answers too.
    expect(planForRecord('br', 404, html, big).coding).toBe('br');
    expect(planForRecord('br', 200, { 'content-type': 'image/png' }, big).set).toEqual({});
  });

  it('adds Accept-Encoding to Vary once', () => {
    expect(varyWithEncoding(null)).toBe('Accept-Encoding');
    expect(varyWithEncoding('Cookie')).toBe('Cookie, Accept-Encoding');
    expect(varyWithEncoding('cookie, accept-encoding')).toBe('cookie, accept-encoding');
    expect(varyWithEncoding('*')).toBe('*');
  });
});

describe('compress', () => {
  const body = Buffer.from('<p>Naphtha CFR Japan 612.50 USD/t</p>\n'.repeat(200));

  it('brotli and gzip round-trip to the same bytes, smaller', async () => {
    for (const effort of ['kept', 'per-request'] as const) {
      const br = await compress(body, 'br', effort);
      const gz = await compress(body, 'gzip', effort);
      expect(brotliDecompressSync(br).equals(body)).toBe(true);
      expect(gunzipSync(gz).equals(body)).toBe(true);
      expect(br.length).toBeLessThan(body.length / 5);
    }
  });

  it('compresses a kept body once per coding, however many ask at once', async () => {
    const owner = {};
    const [a, b] = await Promise.all([keptVariant(owner, body, 'br'), keptVariant(owner, body, 'br')]);
    expect(a).toBe(b);
    expect(await keptVariant(owner, body, 'br')).toBe(a);
    const gz = await keptVariant(owner, body, 'gzip');
    expect(gz).not.toBe(a);
    expect(gunzipSync(gz).equals(body)).toBe(true);
  });
});
