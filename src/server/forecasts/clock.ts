/**
 * The forecasts' clock: what "now" and "today" are for the forecast pages, publication and
 * scoring. The real time, except in a test: with the Auth emulator (loopback only, never in
 * production; settings.ts refuses it otherwise) FORECAST_TEST_CLOCK_FILE names a JSON file
 * `{"offsetDays": n}` that moves this clock n days ahead, read on every use, so a browser test
 * can let a forecast's horizon pass on a running server of its own (tests/e2e/forecast-journey.spec.ts).
 * Forecasts follow it, and so does the latest day the desk may date a price (admin/priceChanges.ts:
 * the test enters the price of the horizon's end); sessions, plans and delivery keep the real time.
 */
import { readFileSync } from 'node:fs';
import { isoDateOf, type IsoDate } from '../../lib/dates.ts';
import { config } from '../config/index.ts';

const DAY_MS = 86_400_000;

function offsetDays(file: string): number {
  try {
    const days = (JSON.parse(readFileSync(file, 'utf8')) as { offsetDays?: unknown }).offsetDays;
    return typeof days === 'number' && Number.isFinite(days) ? days : 0;
  } catch {
    // No file yet: the real time.
    return 0;
  }
}

export function forecastNow(): Date {
  const file = config.forecastTestClockFile;
  return file ? new Date(Date.now() + offsetDays(file) * DAY_MS) : new Date();
}

/** India's day on the forecasts' clock. */
export const forecastToday = (): IsoDate => isoDateOf(forecastNow());
