import { describe, expect, it } from 'vitest';
import { futureTrendProducts, globalBazaarCountries, legacyNewsTypes, newsTypes, newsTypeSectionPath, resolveNewsType, services } from '../../src/lib/catalog.ts';
import {
  deskTextOf,
  indianTimeOf,
  instantFromIndianTime,
  isLive,
  isPostInstant,
  isSlug,
  liveAtOf,
  matchesAllTokens,
  monthRange,
  newestFirst,
  newPostSlug,
  postDate,
  publishAtFor,
  queryTokens,
  searchTextOf,
  searchTokens,
  slugify,
  uniqueSlug,
  yearRange,
} from '../../src/lib/posts.ts';

const NOW = new Date('2026-11-24T06:00:00Z'); // 11:30 IST

describe('news types and the legacy values of /api/blogs', () => {
  it('has one type per future-trend product, global-bazaar country and service, and no duplicates', () => {
    expect(new Set(newsTypes).size).toBe(newsTypes.length);
    for (const p of futureTrendProducts) expect(newsTypes).toContain(`future-trend/${p.slug}`);
    for (const c of globalBazaarCountries) expect(newsTypes).toContain(`global-bazaar/${c.slug}`);
    for (const s of services) expect(newsTypes).toContain(`services/${s.slug}`);
    expect(newsTypes).toContain('vip-delegations');
  });

  it.each([
    ['PlantNews', 'plant-news'], ['plantnews', 'plant-news'], ['PP', 'future-trend/PP'], ['pp', 'future-trend/PP'],
    ['nylon-6-nylon-66', 'future-trend/nylon-6-nylon-66'], ['bopp', 'future-trend/bopp'], ['boppFilm', 'boppFilm'],
    ['India', 'global-bazaar/India'], ['india', 'global-bazaar/India'], ['ksa', 'global-bazaar/ksa'], ['AsianNation', 'global-bazaar/AsianNation'],
    ['BuySell', 'buy-sell'], ['buy-sell', 'buy-sell'], ['VipDelegations', 'vip-delegations'], ['events', 'services/events'],
    ['press-release', 'services/press-release'], ['rateRevision', 'rateRevision'], ['RATEREVISION', 'rateRevision'],
    ['DailyTweet', 'daily-tweet'], ['blog', 'blog'], ['Blogs', 'blog'], [' PP ', 'future-trend/PP'], ['future-trend/PE', 'future-trend/PE'],
  ] as const)('%s → %s', (value, type) => expect(resolveNewsType(value)).toBe(type));

  it.each(['', 'Plant News', 'future-trend', 'future-trend/XX', 'global-bazaar/Mars', 'citywise', '<script>'])('%j is no type', (value) =>
    expect(resolveNewsType(value)).toBeNull(),
  );

  it('has no two aliases or keys that differ only in case (a case-insensitive look-up is unambiguous)', () => {
    const names = [...newsTypes, ...Object.keys(legacyNewsTypes)].map((n) => n.toLowerCase());
    const targets = new Map<string, string>();
    for (const [name, type] of [...newsTypes.map((t) => [t, t] as const), ...Object.entries(legacyNewsTypes)]) {
      const key = name.toLowerCase();
      if (targets.has(key)) expect(targets.get(key), name).toBe(type);
      targets.set(key, type);
    }
    expect(names.length).toBeGreaterThan(newsTypes.length);
  });

  it('knows each type\'s own section page', () => {
    expect(newsTypeSectionPath('buy-sell')).toBe('/buy-sell');
    expect(newsTypeSectionPath('plant-news')).toBe('/plant-news');
    expect(newsTypeSectionPath('rateRevision')).toBe('/indian-bazaar/rateRevision');
    expect(newsTypeSectionPath('future-trend/PP')).toBe('/future-trend/PP');
    expect(newsTypeSectionPath('global-bazaar/India')).toBe('/global-bazaar/India');
    expect(newsTypeSectionPath('vip-delegations')).toBe('/vip-delegations');
    expect(newsTypeSectionPath('services/events')).toBe('/services/events');
    expect(newsTypeSectionPath('blog')).toBeNull();
    expect(newsTypeSectionPath('daily-tweet')).toBeNull();
  });
});

const post = (over: Partial<Parameters<typeof liveAtOf>[0]> = {}) => ({ status: 'published' as const, publishAt: '2026-11-20T04:30:00.000Z', deletedAt: null, ...over });

describe('when a post is live', () => {
  it.each([
    [post(), true],
    [post({ status: 'draft' }), false],
    [post({ status: 'unpublished' }), false],
    [post({ deletedAt: '2026-11-21T00:00:00Z' }), false],
    [post({ status: 'scheduled', publishAt: '2026-11-24T05:59:59.999Z' }), true],
    [post({ status: 'scheduled', publishAt: '2026-11-24T06:00:00.000Z' }), true],
    [post({ status: 'scheduled', publishAt: '2026-11-24T06:00:00.001Z' }), false],
    [post({ status: 'scheduled', publishAt: null }), false],
  ] as const)('%j → %s', (p, live) => expect(isLive(p, NOW)).toBe(live));

  it('is a function of status, publishAt and now alone: a scheduled post turns live with time, nothing written', () => {
    const scheduled = post({ status: 'scheduled', publishAt: '2026-11-24T06:01:00.000Z' });
    expect(liveAtOf(scheduled)).toBe('2026-11-24T06:01:00.000Z');
    expect(isLive(scheduled, NOW)).toBe(false);
    expect(isLive(scheduled, new Date('2026-11-24T06:01:00.000Z'))).toBe(true);
    expect(liveAtOf(post({ status: 'draft' }))).toBeNull();
  });

  it('dates a post by India\'s calendar day of going live', () => {
    expect(postDate({ publishAt: '2026-11-20T18:29:59Z', createdAt: 'x' })).toBe('2026-11-20');
    expect(postDate({ publishAt: '2026-11-20T18:30:00Z', createdAt: 'x' })).toBe('2026-11-21');
    expect(postDate({ publishAt: null, createdAt: '2026-01-01T00:00:00Z' })).toBe('2026-01-01');
  });

  it('orders newest first, then by id', () => {
    const a = { id: 'a', publishAt: '2026-11-20T00:00:00Z', createdAt: '' };
    const b = { id: 'b', publishAt: '2026-11-20T00:00:00Z', createdAt: '' };
    const c = { id: 'c', publishAt: '2026-11-21T00:00:00Z', createdAt: '' };
    expect(newestFirst([a, b, c]).map((p) => p.id)).toEqual(['c', 'b', 'a']);
  });

  it('bounds months and years in India', () => {
    expect(monthRange(2026, 11)).toEqual({ from: '2026-10-31T18:30:00.000Z', to: '2026-11-30T18:30:00.000Z' });
    expect(monthRange(2026, 12)).toEqual({ from: '2026-11-30T18:30:00.000Z', to: '2026-12-31T18:30:00.000Z' });
    expect(yearRange(2026)).toEqual({ from: '2025-12-31T18:30:00.000Z', to: '2026-12-31T18:30:00.000Z' });
  });

  it('reads and writes the editor\'s publish time in India\'s time', () => {
    expect(instantFromIndianTime('2026-11-24T15:30')).toBe('2026-11-24T10:00:00.000Z');
    expect(instantFromIndianTime('2026-11-24T00:10:05')).toBe('2026-11-23T18:40:05.000Z');
    for (const bad of ['', '2026-11-31T10:00', '2026-11-24T24:00', '2026-11-24 10:00', '24-11-2026T10:00', 'soon']) expect(instantFromIndianTime(bad), bad).toBeNull();
    expect(indianTimeOf('2026-11-24T10:00:00.000Z')).toBe('2026-11-24T15:30');
    expect(indianTimeOf(instantFromIndianTime('2026-12-31T23:59')!)).toBe('2026-12-31T23:59');
  });
});

describe('instants a post may carry (stores compare ISO text: 4-digit years only)', () => {
  it.each([
    ['2026-11-24T06:00:00.000Z', true],
    ['2000-01-01T00:00:00.000Z', true],
    ['2999-12-31T23:59:59.999Z', true],
    ['9999-12-31T23:59-05:00', false], // +010000-01-01T04:59:00.000Z: text order puts it before 2026
    ['+010000-01-01T04:59:00.000Z', false],
    ['-000001-01-01T00:00:00.000Z', false],
    ['1999-12-31T23:59:59.999Z', false],
    ['3000-01-01T00:00:00.000Z', false],
    ['not a date', false],
  ])('%s → %s', (value, ok) => {
    expect(isPostInstant(value)).toBe(ok);
    // What the window guarantees: the stored form is a 4-digit year, so text order is time order.
    if (ok) expect(new Date(value).toISOString()).toMatch(/^\d{4}-/);
  });
});

describe('slugs', () => {
  it.each([
    ['Reliance cuts PP prices by Rs 2/kg', 'reliance-cuts-pp-prices-by-rs-2-kg'],
    ['  Café — naïve résumé!  ', 'cafe-naive-resume'],
    ['पॉलिमर', 'post'],
    ['', 'post'],
    // A single word longer than the limit leaves nothing: the fallback keeps a valid slug.
    ['a'.repeat(100), 'post'],
  ])('%j → %j', (title, slug) => expect(slugify(title)).toBe(slug));

  it('caps at 80 characters on a word boundary and is always a valid slug', () => {
    const slug = slugify('Polypropylene raffia prices in Ahmedabad rose again this week as converters restocked before the wedding season');
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(isSlug(slug)).toBe(true);
    expect(slug.endsWith('-')).toBe(false);
  });

  it('names a new post like the seeded ones: India\'s date, then the title', () => {
    expect(newPostSlug('PP outlook', new Date('2026-11-23T19:00:00Z'))).toBe('2026-11-24-pp-outlook');
  });

  it('finds a free slug', () => {
    const taken = new Set(['x', 'x-2']);
    expect(uniqueSlug('x', (s) => taken.has(s))).toBe('x-3');
    expect(uniqueSlug('y', (s) => taken.has(s))).toBe('y');
  });

  it.each([['2026-11-21-pp-price', true], ['A-b', false], ['a--b', false], ['-a', false], ['a_b', false], ['a'.repeat(101), false], ['', false]])('isSlug(%j) = %s', (text, ok) =>
    expect(isSlug(text)).toBe(ok),
  );
});

describe('search tokens', () => {
  it('the desk searches everything a post says, whoever may read it', () => {
    expect(deskTextOf({ title: 'T', summary: 'S', body: 'B', slug: 'a-slug', tags: ['PP', 'LLDPE'] })).toBe('T\nS\nB\na-slug\nPP\nLLDPE');
  });

  it('folds case and accents, splits on anything but letters and digits, keeps each word once', () => {
    expect(searchTokens('Café PP-raffia: Rs 104.50/kg; PP again, naïve Ü')).toEqual(['cafe', 'pp', 'raffia', 'rs', '104', '50', 'kg', 'again', 'naive']);
    expect(searchTokens('पॉलिमर की कीमत')).toEqual(['पॉलिमर', 'की', 'कीमत']);
  });

  it('indexes a gated post\'s body never, its title and summary always', () => {
    const base = { title: 'Reliance price list', summary: 'PP and PE', body: 'secretword inside' };
    expect(searchTextOf({ ...base, access: 'public' })).toContain('secretword');
    expect(searchTextOf({ ...base, access: 'full' })).not.toContain('secretword');
    expect(searchTextOf({ ...base, access: 'limited' })).not.toContain('secretword');
    expect(searchTextOf({ ...base, access: 'full' })).toContain('Reliance');
  });

  it('matches when every query word is there', () => {
    const tokens = searchTokens('Reliance cuts PP prices');
    expect(matchesAllTokens(tokens, queryTokens('reliance PP'))).toBe(true);
    expect(matchesAllTokens(tokens, queryTokens('reliance PVC'))).toBe(false);
    expect(matchesAllTokens(tokens, queryTokens('  '))).toBe(false);
    expect(queryTokens('a b c d e f g h i j k l m n o p')).toEqual([]);
    expect(queryTokens('one two three four five six seven eight nine ten')).toHaveLength(8);
  });
});

describe('publishing rules', () => {
  const past = '2026-11-20T04:30:00.000Z';
  const future = '2026-11-24T06:01:00.000Z';
  it.each([
    ['published', undefined, null, { ok: true, publishAt: NOW.toISOString() }],
    ['published', undefined, past, { ok: true, publishAt: past }],
    ['published', undefined, future, { ok: true, publishAt: NOW.toISOString() }],
    ['published', past, null, { ok: true, publishAt: past }],
    ['published', future, null, { ok: false, field: 'publishAt' }],
    ['scheduled', future, null, { ok: true, publishAt: future }],
    ['scheduled', undefined, future, { ok: true, publishAt: future }],
    ['scheduled', undefined, null, { ok: false, field: 'publishAt' }],
    ['scheduled', past, null, { ok: false, field: 'publishAt' }],
    ['scheduled', NOW.toISOString(), null, { ok: false, field: 'publishAt' }],
    ['draft', undefined, past, { ok: true, publishAt: past }],
    ['unpublished', undefined, past, { ok: true, publishAt: past }],
  ] as const)('%s with %s (was %s)', (status, requested, current, expected) =>
    expect(publishAtFor(status, requested, current, NOW)).toMatchObject(expected),
  );
});

describe('text for XML', () => {
  it('drops what XML 1.0 cannot carry and keeps the rest', async () => {
    const { escapeXml, xmlText } = await import('../../src/lib/xml.ts');
    expect(xmlText('a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg\uFFFEh\uFFFF')).toBe('abcdefgh');
    expect(xmlText('tab\tline\nreturn\r ₹ 😀 \u007F')).toBe('tab\tline\nreturn\r ₹ 😀 \u007F');
    expect(xmlText('lone \uD800 high, lone \uDC00 low')).toBe('lone  high, lone  low');
    expect(escapeXml('<a href="x">&\u0001\'</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
  });
});
