import { describe, expect, it } from 'vitest';
import { afterScroll, autoAdvances, slideAtScroll, stepSlide, teaserOf, TEASER_POINTS, TICKER_SERIES, tickerDirection, tickerItem } from '../../src/lib/home.ts';
import { findSeries } from '../../src/lib/seriesCatalog.ts';

const p = (date: string, value: number) => ({ date, value });

describe('the Naphtha teaser', () => {
  it('keeps the shape and direction of the trend, scaled 0–100, and no price', () => {
    const points = [p('2026-09-01', 600), p('2026-09-02', 620), p('2026-09-03', 610), p('2026-09-04', 640)];
    const teaser = teaserOf('Naphtha · Japan', points);
    expect(teaser).toEqual({ label: 'Naphtha · Japan', period: 'last three months', direction: 'up', shape: [0, 50, 25, 100] });
    expect(JSON.stringify(teaser)).not.toMatch(/6[0-4]\d/);
  });

  it.each([
    [[600, 590], 'down'],
    [[600, 604], 'flat'],
    [[600, 600], 'flat'],
  ] as const)('%j is %s', (values, direction) => {
    const teaser = teaserOf('x', values.map((v, i) => p(`2026-09-0${i + 1}`, v)));
    expect(teaser.direction).toBe(direction);
  });

  it('thins a long history and copes with a flat or empty one', () => {
    const long = Array.from({ length: 200 }, (_, i) => p(`2026-01-01`, 500 + i));
    expect(teaserOf('x', long).shape).toHaveLength(TEASER_POINTS);
    expect(teaserOf('x', [p('2026-01-01', 5), p('2026-01-02', 5)]).shape).toEqual([50, 50]);
    expect(teaserOf('x', []).shape).toEqual([]);
    expect(teaserOf('x', []).direction).toBe('flat');
  });
});

describe('the ticker', () => {
  it('names only catalog series', () => {
    for (const id of TICKER_SERIES) expect(findSeries(id), id).toBeDefined();
  });

  it('gives the latest value and its change on the point before, with the basis, rounded at the edge', () => {
    expect(tickerItem('fx.usdinr', [p('2026-11-20', 84), p('2026-11-23', 84.42)])).toEqual({
      id: 'fx.usdinr', label: 'US dollar to Indian rupee', unit: '₹/US$', decimals: 4, place: 'FBIL', basis: 'FBIL reference rate, ₹/US$',
      value: 84.42, date: '2026-11-23', change: 0.42, changePct: 0.5,
    });
    // Float noise in the store never reaches the answer.
    expect(tickerItem('fx.usdinr', [p('2026-11-20', 90), p('2026-11-23', 90.10000000000001)])).toMatchObject({ value: 90.1, change: 0.1 });
    expect(tickerItem('fx.usdinr', [])).toBeNull();
    expect(tickerItem('no.series', [p('2026-11-20', 1)])).toBeNull();
  });

  it('gives visitors without the data only the name and the direction of the latest move', () => {
    const item = (values: number[]) => tickerItem('fx.usdinr', values.map((v, i) => p(`2026-11-2${i}`, v)))!;
    expect(tickerDirection(item([84, 84.42]))).toEqual({ id: 'fx.usdinr', label: 'US dollar to Indian rupee', date: '2026-11-21', direction: 'up' });
    expect(tickerDirection(item([84.42, 84]))?.direction).toBe('down');
    expect(tickerDirection(item([84, 84]))?.direction).toBe('flat');
    // One point has no move to show.
    expect(tickerDirection(item([84]))).toBeNull();
    expect(Object.keys(tickerDirection(item([84, 85]))!)).toEqual(['id', 'label', 'date', 'direction']);
  });
});

describe('the banner carousel', () => {
  it.each([
    [0, 4, 1, 1], [3, 4, 1, 0], [0, 4, -1, 3], [2, 4, -1, 1], [0, 1, 1, 0], [0, 0, 1, 0],
  ] as const)('from %d of %d, step %d → %d', (index, count, step, expected) => expect(stepSlide(index, count, step)).toBe(expected));

  const still = { reducedMotion: false, paused: false, hovered: false, focused: false, hidden: false, count: 4 };
  it('advances only when nothing holds it', () => {
    expect(autoAdvances(still)).toBe(true);
    for (const key of ['reducedMotion', 'paused', 'hovered', 'focused', 'hidden'] as const) expect(autoAdvances({ ...still, [key]: true }), key).toBe(false);
    expect(autoAdvances({ ...still, count: 1 })).toBe(false);
  });

  it.each([
    [0, 1000, 4, 0], [1000, 1000, 4, 1], [1499, 1000, 4, 1], [1500, 1000, 4, 2], [2990, 1000, 4, 3],
    [9000, 1000, 4, 3], [-20, 1000, 4, 0], [500, 0, 4, 3], [0, 1000, 0, 0],
  ] as const)('a track scrolled to %d with slides %d wide, of %d, shows slide %d', (left, width, count, expected) =>
    expect(slideAtScroll(left, width, count)).toBe(expected));

  it.each([
    // Its own move under way: a scroll that settled elsewhere (a timer armed before the click) changes nothing.
    ['a stale settle while moving 1 → 0', { index: 0, heading: 0 }, 1, { index: 0, heading: 0 }],
    ['passing slide 1 on the way to 3', { index: 3, heading: 3 }, 1, { index: 3, heading: 3 }],
    ['arrived', { index: 3, heading: 3 }, 3, { index: 3, heading: null }],
    // Not moving by itself: a swipe by hand is followed.
    ['a swipe to 2', { index: 1, heading: null }, 2, { index: 2, heading: null }],
    ['a scroll that stays', { index: 1, heading: null }, 1, { index: 1, heading: null }],
  ] as const)('after a settled scroll: %s', (_label, position, at, expected) => expect(afterScroll(position, at)).toEqual(expected));
});
