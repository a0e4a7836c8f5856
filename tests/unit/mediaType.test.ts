import { describe, expect, it } from 'vitest';
import { isJsonMediaType, mediaTypeOf } from '../../src/lib/mediaType.ts';

describe('media types of request bodies', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON;charset=UTF-8', true],
    ['  application/json  ', true],
    ['application/merge-patch+json', true],
    ['application/x-www-form-urlencoded', false],
    ['multipart/form-data; boundary=x', false],
    ['text/plain;charset=UTF-8', false],
    ['text/json', false],
    ['application/jsonp', false],
    ['application/json-seq', false],
    ['application/+json', false],
    ['', false],
    [null, false],
    [undefined, false],
  ])('%s → JSON: %s', (header, expected) => {
    expect(isJsonMediaType(header)).toBe(expected);
  });

  it('strips parameters and case', () => {
    expect(mediaTypeOf('Text/CSV; charset=utf-8')).toBe('text/csv');
    expect(mediaTypeOf(null)).toBe('');
  });
});
