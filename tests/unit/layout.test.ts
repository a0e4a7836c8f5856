import { describe, expect, it } from 'vitest';
import { pageTitle } from '../../src/lib/title.ts';
import { yearOptions } from '../../src/lib/years.ts';
import { isCloseSwipe, showBackToTop } from '../../src/lib/ui.ts';

describe('page title', () => {
  it.each([
    ['/', 'PolyIndex | Home'],
    ['', 'PolyIndex | Home'],
    ['/crude', 'PolyIndex | Crude'],
    ['/crude/Naphtha', 'PolyIndex | Crude'],
    ['/global-bazaar/USA', 'PolyIndex | Global-bazaar'],
    ['/register', 'PolyIndex | Register'],
    ['/vip-delegations/2019/k-show', 'PolyIndex | Vip-delegations'],
    ['/terms/', 'PolyIndex | Terms'],
  ])('%s → %s', (path, title) => expect(pageTitle(path)).toBe(title));
});

describe('year selector', () => {
  it('lists the current year down to twelve years back, newest first', () => {
    const years = yearOptions(2026);
    expect(years).toHaveLength(13);
    expect(years[0]).toBe(2026);
    expect(years.at(-1)).toBe(2014);
  });

  it('stops at a given start year', () => {
    expect(yearOptions(2026, 2023)).toEqual([2026, 2025, 2024, 2023]);
    expect(yearOptions(2026, 2026)).toEqual([2026]);
  });

  it('never lists a future year even when the start year is ahead', () => {
    expect(yearOptions(2026, 2030)).toEqual([2026]);
  });
});

describe('layout thresholds', () => {
  it('shows back-to-top only after more than 500 px', () => {
    expect(showBackToTop(0)).toBe(false);
    expect(showBackToTop(500)).toBe(false);
    expect(showBackToTop(501)).toBe(true);
  });

  it('closes the menu on a left swipe of more than 50 px only', () => {
    expect(isCloseSwipe({ x: 200, y: 100 }, { x: 149, y: 100 })).toBe(true);
    expect(isCloseSwipe({ x: 200, y: 100 }, { x: 150, y: 100 })).toBe(false);
    expect(isCloseSwipe({ x: 100, y: 100 }, { x: 200, y: 100 })).toBe(false);
    // Mostly vertical: a scroll, not a swipe.
    expect(isCloseSwipe({ x: 200, y: 100 }, { x: 140, y: 300 })).toBe(false);
  });
});
