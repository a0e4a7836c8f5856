/** The data feed's pure parts: the format a request asks, CSV cells, the meter's windows and months, key shapes, and keys kept out of text. */
import { describe, expect, it } from 'vitest';
import { csvTable, feedFormatOf, latestEntry } from '../../src/lib/feed/format.ts';
import { findSeries } from '../../src/lib/seriesCatalog.ts';
import { hashKey, keyIdOf, keyMatches, mintKey, sameText, withoutKey } from '../../src/server/feed/keys.ts';
import { meterRequest } from '../../src/server/store/apiKeys.ts';

const KEY = { id: 'abcdefghijkl', ownerUid: 'u1', ratePerMinute: 2, monthlyQuota: 3 };

describe('the format a request asks for', () => {
  it.each([
    ['/api/v1/catalog', null, 'json'],
    ['/api/v1/catalog.csv', null, 'csv'],
    ['/api/v1/catalog', 'text/csv', 'csv'],
    ['/api/v1/catalog', 'application/json, text/csv;q=0.5', 'csv'],
    ['/api/v1/catalog', 'text/html,*/*', 'json'],
    ['/api/v1/catalog', 'text/csvx', 'json'],
  ] as const)('%s with Accept %s is %s', (path, accept, format) => expect(feedFormatOf(path, accept)).toBe(format));
});

describe('CSV as spreadsheets read it', () => {
  it('starts with a BOM, ends rows with CRLF, quotes only what needs it, writes numbers plainly', () => {
    expect(csvTable(['a', 'b'], [['x, y', 'say "hi"'], [0.0000001, 12345678.5], [null, true]])).toBe('\uFEFFa,b\r\n"x, y","say ""hi"""\r\n0.0000001,12345678.5\r\n,true\r\n');
  });

  it('gives the change and the change in per cent from the last two points, rounded to the basis', () => {
    const fx = findSeries('fx.usdinr')!;
    expect(latestEntry(fx, [{ date: '2026-11-23', value: 84.12341 }, { date: '2026-11-24', value: 84.2 }])).toMatchObject({ value: 84.2, previousValue: 84.1234, change: 0.0766, changePct: 0.0911 });
    expect(latestEntry(fx, [])).toMatchObject({ date: null, value: null, change: null, changePct: null });
  });
});

describe('the meter', () => {
  it('counts a minute window, refuses past the rate with the seconds left, and starts again with the next minute', () => {
    const t = new Date('2026-11-24T06:00:45.000Z');
    const first = meterRequest(KEY, null, t);
    expect(first).toMatchObject({ allowed: true, rate: { remaining: 1, resetSeconds: 15 }, quota: { remaining: 2 } });
    const { meter } = meterRequest(KEY, first.meter, t);
    const refused = meterRequest(KEY, meter, t);
    expect(refused).toMatchObject({ allowed: false, limit: 'rate', retryAfterSeconds: 15 });
    expect(refused.meter).toEqual(meter);
    expect(meterRequest(KEY, meter, new Date('2026-11-24T06:01:00.000Z')).allowed).toBe(true);
  });

  it('keeps the quota per calendar month in India: it starts again at midnight IST on the 1st', () => {
    const endOfMonthIst = new Date('2026-11-30T18:29:59.000Z'); // 30 Nov, 23:59:59 IST
    let meter = null;
    for (let i = 0; i < 3; i++) meter = meterRequest({ ...KEY, ratePerMinute: 100 }, meter, endOfMonthIst).meter;
    const over = meterRequest({ ...KEY, ratePerMinute: 100 }, meter, endOfMonthIst);
    expect(over).toMatchObject({ allowed: false, limit: 'quota', retryAfterSeconds: 1 });
    expect(meterRequest({ ...KEY, ratePerMinute: 100 }, meter, new Date('2026-11-30T18:30:00.000Z'))).toMatchObject({ allowed: true, meter: { month: '2026-12', monthCount: 1 } });
  });
});

describe('a lease of requests', () => {
  const BIG = { ...KEY, ratePerMinute: 60, monthlyQuota: 1000 };
  const t = new Date('2026-11-24T06:00:45.000Z');

  it('grants what was asked while plenty is left, at most half of what is left, and one at the very end', () => {
    expect(meterRequest(BIG, null, t, { want: 6, giveBack: null })).toMatchObject({ granted: 6, rate: { remaining: 54 }, meter: { windowCount: 6, monthCount: 6 } });
    const nearRate = { keyId: BIG.id, ownerUid: 'u1', windowStart: '2026-11-24T06:00:00.000Z', windowCount: 55, month: '2026-11', monthCount: 55, lastUsedAt: t.toISOString() };
    expect(meterRequest(BIG, nearRate, t, { want: 6, giveBack: null }).granted).toBe(2);
    expect(meterRequest(BIG, { ...nearRate, windowCount: 59 }, t, { want: 6, giveBack: null }).granted).toBe(1);
    expect(meterRequest(BIG, { ...nearRate, windowCount: 60 }, t, { want: 6, giveBack: null })).toMatchObject({ granted: 0, allowed: false, limit: 'rate' });
  });

  it('takes an unused rest off the minute only if it is this minute, off the month only if it is this month; a want of 0 only gives back', () => {
    const meter = { keyId: BIG.id, ownerUid: 'u1', windowStart: '2026-11-24T06:00:00.000Z', windowCount: 12, month: '2026-11', monthCount: 40, lastUsedAt: t.toISOString() };
    const sameMinute = meterRequest(BIG, meter, t, { want: 0, giveBack: { windowStart: '2026-11-24T06:00:00.000Z', day: '2026-11-24', unused: 4 } });
    expect(sameMinute).toMatchObject({ granted: 0, meter: { windowCount: 8, monthCount: 36 } });
    const earlierMinute = meterRequest(BIG, meter, t, { want: 0, giveBack: { windowStart: '2026-11-24T05:59:00.000Z', day: '2026-11-24', unused: 4 } });
    expect(earlierMinute.meter).toMatchObject({ windowCount: 12, monthCount: 36 });
    const lastMonth = meterRequest(BIG, meter, t, { want: 0, giveBack: { windowStart: '2026-10-31T18:29:00.000Z', day: '2026-10-31', unused: 4 } });
    expect(lastMonth.meter).toMatchObject({ windowCount: 12, monthCount: 40 });
  });
});

describe('keys', () => {
  it('are pik_, a 12-character id and 32 random bytes; the id is read back, the hash matches only the key', () => {
    const { key, id } = mintKey();
    expect(key).toMatch(/^pik_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(keyIdOf(key)).toBe(id);
    expect(keyIdOf(`${key}x`)).toBeNull();
    expect(keyIdOf('Bearer nonsense')).toBeNull();
    expect(keyMatches(key, { hash: hashKey(key) })).toBe(true);
    expect(keyMatches(key, { hash: hashKey(mintKey().key) })).toBe(false);
    // A kept key is compared with the one presented text by text, in time that depends on length alone.
    expect(sameText(key, `${key}`)).toBe(true);
    expect(sameText(key, `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(sameText(key, key.slice(0, -1))).toBe(false);
    expect(sameText(`x${key.slice(1)}`, key)).toBe(false);
    expect(mintKey().key).not.toBe(key);
  });

  it('are taken out of any text that is logged or repeated', () => {
    const { key } = mintKey();
    expect(withoutKey(`/api/v1/latest.csv?ids=a&key=${key}&x=1`)).toBe('/api/v1/latest.csv?ids=a&key=…&x=1');
    expect(withoutKey(`/api/v1/series/${key}`)).toBe('/api/v1/series/pik_…');
    expect(withoutKey('/api/v1/series/feedstock.naphtha.japan')).toBe('/api/v1/series/feedstock.naphtha.japan');
  });
});
