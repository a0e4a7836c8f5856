import { describe, expect, it } from 'vitest';
import { ALLOWED_WIDTHS, IMAGE_WIDTHS, canonicalImageQuery, fallbackWidth, imageRequestProblem } from '../../src/lib/images.ts';

const ok = '/_astro/2017-chinaplas-guangzhou-hall.BI8bzjRL.png';
const check = (query: string) => imageRequestProblem(new URLSearchParams(query));

describe('which /_image requests the site serves', () => {
  it.each([
    `href=${ok}&w=400&h=267&f=webp`,
    `href=${ok}&w=800&f=webp`,
    `href=${ok}&w=1200&h=800&f=webp`,
    `href=${encodeURIComponent(ok)}&w=1200&h=630&f=png`,
    `href=/_astro/lead.abc123.jpg&w=960&f=webp&q=80`,
    `href=/_astro/lead.abc123.jpeg&w=480&f=webp&q=high`,
    `href=/_astro/lead.abc123.webp&w=480&f=png`,
  ])('serves %s', (query) => {
    expect(check(query)).toBeNull();
  });

  it.each([
    // [query, status, code, field]
    ['w=400&f=webp', 400, 'invalid_input', 'href'],
    ['href=/favicon.svg&w=400&f=png', 400, 'unsupported_image', 'href'],
    ['href=/_astro/logo.abc.svg&w=400&f=webp', 400, 'unsupported_image', 'href'],
    ['href=https://example.com/a.png&w=400&f=webp', 400, 'remote_image', 'href'],
    ['href=//example.com/a.png&w=400&f=webp', 400, 'remote_image', 'href'],
    ['href=data:image/png;base64,AAAA&w=400&f=webp', 400, 'remote_image', 'href'],
    ['href=file:///etc/passwd&w=400&f=webp', 400, 'remote_image', 'href'],
    ['href=/_astro/../server/entry.mjs&w=400&f=webp', 404, 'unknown_image', 'href'],
    ['href=/_astro/a..png&w=400&f=webp', 404, 'unknown_image', 'href'],
    ['href=/banners/teal.png&w=400&f=webp', 404, 'unknown_image', 'href'],
    ['href=/_astro/sub/dir.png&w=400&f=webp', 404, 'unknown_image', 'href'],
    [`href=${ok}&f=webp`, 400, 'invalid_input', 'w'],
    [`href=${ok}&w=abc&f=webp`, 400, 'invalid_input', 'w'],
    [`href=${ok}&w=401&f=webp`, 400, 'invalid_input', 'w'],
    [`href=${ok}&w=8000&h=8000&f=avif`, 400, 'invalid_input', 'w'],
    [`href=${ok}&w=0400&f=webp`, 400, 'invalid_input', 'w'],
    [`href=${ok}&w=-400&f=webp`, 400, 'invalid_input', 'w'],
    [`href=${ok}&w=400.5&f=webp`, 400, 'invalid_input', 'w'],
    [`href=${ok}&w=400&h=8000&f=webp`, 400, 'invalid_input', 'h'],
    [`href=${ok}&w=400&h=abc&f=webp`, 400, 'invalid_input', 'h'],
    [`href=${ok}&w=400&f=avif`, 400, 'invalid_input', 'f'],
    [`href=${ok}&w=400&f=bogus`, 400, 'invalid_input', 'f'],
    [`href=${ok}&w=400&f=svg`, 400, 'invalid_input', 'f'],
    [`href=${ok}&w=400`, 400, 'invalid_input', 'f'],
    [`href=${ok}&w=400&f=webp&q=abc`, 400, 'invalid_input', 'q'],
    [`href=${ok}&w=400&f=webp&q=100`, 400, 'invalid_input', 'q'],
    [`href=${ok}&w=400&f=webp&q=1`, 400, 'invalid_input', 'q'],
    [`href=${ok}&w=400&f=webp&q=max`, 400, 'invalid_input', 'q'],
    [`href=${ok}&w=400&f=webp&fit=cover`, 400, 'invalid_input', 'fit'],
    [`href=${ok}&w=400&w=800&f=webp`, 400, 'invalid_input', 'w'],
    [`href=${ok}&href=/_astro/b.png&w=400&f=webp`, 400, 'invalid_input', 'href'],
  ])('refuses %s with %i %s naming %s', (query, status, code, field) => {
    expect(check(query)).toMatchObject({ status, code, field, message: expect.any(String) });
  });

  it('lists the allowed widths in its message', () => {
    expect(check(`href=${ok}&w=8000&f=webp`)?.message).toBe('The width must be one of 400, 480, 800, 960, 1200.');
  });

  it('the fallback width of each kind is one of the allowed widths', () => {
    for (const widths of Object.values(IMAGE_WIDTHS)) expect(ALLOWED_WIDTHS.has(fallbackWidth(widths))).toBe(true);
  });

  it('one cache key for one picture, whatever the order of the parameters', () => {
    expect(canonicalImageQuery(new URLSearchParams(`f=webp&w=400&href=${ok}`))).toBe(canonicalImageQuery(new URLSearchParams(`href=${ok}&w=400&f=webp`)));
    expect(canonicalImageQuery(new URLSearchParams(`href=${ok}&w=400&f=webp`))).not.toBe(canonicalImageQuery(new URLSearchParams(`href=${ok}&w=800&f=webp`)));
  });
});
