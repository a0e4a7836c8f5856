/**
 * The customs exchange rate (issue 20): the ₹ per US$ at which customs value imports and
 * exports, set by the Central Board of Indirect Taxes and Customs (CBIC) in a notification and
 * in force from its effective date until the next one. It moves only on those dates; the
 * market's daily reference rate (`fx.usdinr`) is a separate series. Pure: the record, its
 * rules and the look-up of the rate in force.
 */
import { parseIsoDate, type IsoDate } from './dates.ts';
import { roundTo } from './numbers.ts';

export interface CustomsRateNotification {
  /** As CBIC numbers it: "79/2026-Customs (N.T.)". */
  readonly number: string;
  /** The day CBIC notified the rates. */
  readonly notifiedOn: IsoDate;
  /** In force from this day (inclusive) until the next notification's effective date. One notification per effective date. */
  readonly effectiveFrom: IsoDate;
  /** ₹ per US$ for imported goods. */
  readonly importRate: number;
  /** ₹ per US$ for exported goods. */
  readonly exportRate: number;
}

/** The basis words of the customs rate (the unit and its decimals: CBIC notifies to 5 paise). */
export const CUSTOMS_RATE_QUOTING = { unit: '₹/US$', decimals: 2 } as const;

const NUMBER_PATTERN = /^\d{1,3}\/\d{4}-Customs \(N\.T\.\)$/;

/** Why a notification may not be stored, or null. */
export function customsNotificationProblem(n: CustomsRateNotification): string | null {
  if (!NUMBER_PATTERN.test(n.number)) return `the notification number must read like "79/2026-Customs (N.T.)", not ${JSON.stringify(n.number)}`;
  if (!parseIsoDate(n.notifiedOn) || !parseIsoDate(n.effectiveFrom)) return 'the dates must be real YYYY-MM-DD dates';
  if (n.effectiveFrom < n.notifiedOn) return 'a notification takes effect on or after the day it is notified';
  for (const [what, rate] of [['import', n.importRate], ['export', n.exportRate]] as const) {
    if (!Number.isFinite(rate) || rate < 40 || rate > 200) return `the ${what} rate must be between 40 and 200 ₹/US$`;
    if (roundTo(rate, CUSTOMS_RATE_QUOTING.decimals) !== rate) return `the ${what} rate may have at most two decimals`;
  }
  return null;
}

/** The notification in force on `date` (notifications in any order), or null before the first. */
export function customsRateInForce(notifications: readonly CustomsRateNotification[], date: IsoDate): CustomsRateNotification | null {
  let found: CustomsRateNotification | null = null;
  for (const n of notifications) if (n.effectiveFrom <= date && (!found || n.effectiveFrom > found.effectiveFrom)) found = n;
  return found;
}
