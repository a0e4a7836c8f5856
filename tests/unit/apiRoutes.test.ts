import { describe, expect, it } from 'vitest';
import { apiRoutes, matchApiRoute } from '../../src/server/api/routes.ts';
import { cookieHeaderSource, credentialsOf } from '../../src/server/edge/caller.ts';

describe('the data API routing table', () => {
  it.each([
    ['/api/feedstock', '/api/feedstock', {}],
    ['/api/feedstock/', '/api/feedstock', {}],
    ['/api/citywise', '/api/citywise', {}],
    ['/api/citywise/mumbai', '/api/citywise/[city]', { city: 'mumbai' }],
    ['/api/citywise/New%20Delhi', '/api/citywise/[city]', { city: 'New Delhi' }],
    ['/api/carousels/', '/api/carousels', {}],
    ['/api/export/fx.usdinr.csv', '/api/export/[series].csv', { series: 'fx.usdinr' }],
    ['/api/series', '/api/series', {}],
    ['/api/blogs', '/api/blogs', {}],
  ])('%s → %s', (path, pattern, params) => {
    const match = matchApiRoute(path);
    expect(match?.route.pattern).toBe(pattern);
    expect(match?.params).toEqual(params);
  });

  it.each(['/api/feedstockx', '/api/citywise/a/b', '/api/carousels/images/x.png', '/api/export/x.json', '/api/series/export.csv', '/api/session', '/crude/Naphtha', '/api/citywise/%E0%A4'])(
    '%s is not a data route (Astro answers it)',
    (path) => expect(matchApiRoute(path)).toBeNull(),
  );

  it('names every pattern once', () => {
    expect(new Set(apiRoutes.map((r) => r.pattern)).size).toBe(apiRoutes.length);
  });
});

describe('the session cookie, as the fast lane reads it from the Cookie header', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['__session=abc', 'abc'],
    ['a=1; __session=x.y.z; b=2', 'x.y.z'],
    ['x__session=no; __session=yes', 'yes'],
    ['__session=a%2Fb', 'a/b'],
    ['__session=%E0%A4', '%E0%A4'],
    ['__sessionx=1', undefined],
  ])('%s → %s', (header, value) => expect(credentialsOf(cookieHeaderSource(header)).sessionCookie).toBe(value));
});
