/**
 * The customs exchange-rate notifications (src/lib/customsRates.ts) as a store part: the
 * record kind `customsRates`, one record per effective date, stored by the shared document
 * layer (./documents/customsRates.ts). No I/O here.
 */
import type { CustomsRateNotification } from '../../lib/customsRates.ts';

export type { CustomsRateNotification } from '../../lib/customsRates.ts';

export interface CustomsRateStore {
  /** Writes each notification whole, by its effective date (an import or the seed run again changes nothing). Returns how many. */
  upsertCustomsRates(notifications: readonly CustomsRateNotification[]): Promise<number>;
  /** Every notification, oldest effective date first. */
  listCustomsRates(): Promise<CustomsRateNotification[]>;
}
