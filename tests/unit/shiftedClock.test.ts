import { afterEach, describe, expect, it, vi } from 'vitest';
import { shiftClockTo } from '../support/shiftedClock.ts';

/** Keeps the event loop busy for `ms` of real time, as a loaded machine does to a test. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

let restore = (): void => undefined;
afterEach(() => {
  restore();
  restore = () => undefined;
  vi.useRealTimers();
});

describe('the shifted test clock', () => {
  it('starts at the instant asked and keeps real time while the event loop is busy', () => {
    const at = Date.UTC(2030, 0, 1, 6, 0, 0, 300);
    const before = new Date();
    restore = shiftClockTo(at);
    // The shift is years; the bound only allows for a busy machine between the two readings.
    expect(Date.now() - at).toBeLessThan(1_000);
    busy(300);
    expect(Date.now() - at).toBeGreaterThanOrEqual(300);
    expect(new Date().getTime() - at).toBeGreaterThanOrEqual(300);
    // Dates built from a value, and the static helpers, are the real ones.
    expect(new Date(0).toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(new Date('2026-11-27T00:00:00Z').getTime()).toBe(Date.UTC(2026, 10, 27));
    expect(Date.parse('2026-11-27T00:00:00Z')).toBe(Date.UTC(2026, 10, 27));
    // It is the real Date underneath: a plain call, instanceof and dates made before the shift.
    expect(Date()).toMatch(/\b2030\b/);
    expect(new Date()).toBeInstanceOf(Date);
    expect(before).toBeInstanceOf(Date);
    restore();
    restore = () => undefined;
    expect(Math.abs(Date.now() - performance.timeOrigin - performance.now())).toBeLessThan(1_000);
  });

  it('refuses to shift a fake clock, whose restore would then remove the global', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    expect(() => shiftClockTo(0)).toThrow(/fake timers/);
  });

  it('is needed: a fake Date that advances by timer ticks stands still while the event loop is busy', () => {
    const at = Date.UTC(2030, 0, 1, 6, 0, 0, 300);
    vi.useFakeTimers({ toFake: ['Date'], now: at, shouldAdvanceTime: true });
    busy(300);
    expect(Date.now() - at).toBeLessThan(300);
  });
});
