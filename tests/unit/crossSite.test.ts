/**
 * The cross-site form check that replaces Astro's `security.checkOrigin` (src/lib/http/crossSite.ts):
 * Astro's own cases (astro/dist/core/app/origin-check.js, Astro 7.3) give the same answers, and
 * the one exemption is RFC 8058's one-click unsubscribe POST, form-encoded, to its exact path.
 */
import { describe, expect, it } from 'vitest';
import { isForbiddenCrossOriginRequest } from '../../node_modules/astro/dist/core/app/origin-check.js';
import { isForbiddenCrossOrigin, isOneClickUnsubscribe, isRefusedCrossSite } from '../../src/lib/http/crossSite.ts';

const SITE = 'https://polyindex.example';
const request = (method: string, headers: Record<string, string>) => ({ method, headers: new Headers(headers) });
const FORM = 'application/x-www-form-urlencoded';

// [method, Origin (null: none), Content-Type (null: none), forbidden]
const ASTRO_CASES: readonly [string, string | null, string | null, boolean][] = [
  ['GET', null, null, false],
  ['HEAD', 'https://evil.example', null, false],
  ['OPTIONS', 'https://evil.example', FORM, false],
  ['POST', SITE, FORM, false],
  ['POST', 'https://evil.example', FORM, true],
  ['POST', null, FORM, true],
  ['POST', null, 'multipart/form-data; boundary=x', true],
  ['POST', null, 'text/plain;charset=UTF-8', true],
  ['POST', null, 'TEXT/PLAIN', true],
  ['POST', 'https://evil.example', 'application/json', false],
  ['POST', null, 'application/json', false],
  ['POST', null, null, true],
  ['POST', SITE, null, false],
  ['PUT', 'https://evil.example', FORM, true],
  ['PUT', null, null, true],
  ['DELETE', 'https://evil.example', null, true],
  ['DELETE', SITE, null, false],
  ['PATCH', 'null', FORM, true],
  ['POST', 'https://polyindex.example:8443', FORM, true],
  ['POST', 'http://polyindex.example', FORM, true],
];

describe("Astro's check, unchanged", () => {
  it.each(ASTRO_CASES)('%s Origin=%s Content-Type=%s → forbidden %s', (method, origin, type, forbidden) => {
    const headers: Record<string, string> = {};
    if (origin !== null) headers['origin'] = origin;
    if (type !== null) headers['content-type'] = type;
    for (const path of ['/api/sendMail', '/unsubscribe', '/api/unsubscribe']) {
      const url = new URL(path, SITE);
      expect(isForbiddenCrossOrigin(request(method, headers), url)).toBe(forbidden);
      // Astro's own function agrees on every case.
      expect(isForbiddenCrossOriginRequest(new Request(url, { method, headers }), url, false)).toBe(forbidden);
    }
  });
});

describe('the one exemption: RFC 8058 one-click unsubscribe', () => {
  it.each([
    ['POST', '/api/unsubscribe', FORM, true],
    ['POST', '/api/unsubscribe/', FORM, true],
    ['POST', '/api/unsubscribe', 'multipart/form-data; boundary=----x', true],
    ['POST', '/api/unsubscribe', 'Application/X-WWW-Form-Urlencoded; charset=utf-8', true],
    ['POST', '/api/unsubscribe', 'text/plain', false],
    ['POST', '/api/unsubscribe', null, false],
    ['PUT', '/api/unsubscribe', FORM, false],
    ['DELETE', '/api/unsubscribe', FORM, false],
    ['POST', '/unsubscribe', FORM, false],
    ['POST', '/api/unsubscribe/x', FORM, false],
    ['POST', '/api/unsubscribex', FORM, false],
    ['POST', '/API/unsubscribe', FORM, false],
    ['POST', '/api/sendMail', FORM, false],
  ] as const)('%s %s (%s) exempt: %s', (method, path, type, exempt) => {
    const url = new URL(`${path}?token=abc`, SITE);
    const headers: Record<string, string> = type === null ? {} : { 'content-type': type };
    expect(isOneClickUnsubscribe(request(method, headers), url)).toBe(exempt);
    // Without an Origin (as a mail client posts), only the exemption gets through.
    expect(isRefusedCrossSite(request(method, headers), url)).toBe(!exempt);
  });

  it('a same-origin or JSON request is never refused, exempt or not', () => {
    expect(isRefusedCrossSite(request('POST', { origin: SITE, 'content-type': FORM }), new URL('/unsubscribe?token=x', SITE))).toBe(false);
    expect(isRefusedCrossSite(request('POST', { 'content-type': 'application/json' }), new URL('/api/whatsapp/webhook', SITE))).toBe(false);
  });
});
