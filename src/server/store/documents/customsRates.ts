/** The customs exchange-rate notifications (../customsRates.ts), written once over the document driver. */
import { customsNotificationProblem } from '../../../lib/customsRates.ts';
import type { CustomsRateStore } from '../customsRates.ts';
import type { DocumentDriver } from './driver.ts';

/** Firestore takes at most 500 writes a commit; the seed's twelve years are about 300 notifications. */
const PER_COMMIT = 200;

export function createCustomsRateStore(docs: DocumentDriver): CustomsRateStore {
  return {
    async upsertCustomsRates(notifications) {
      // Every record is checked before the first write: a bad one writes nothing.
      for (const n of notifications) {
        const problem = customsNotificationProblem(n);
        if (problem) throw new RangeError(`customs notification ${n.number}: ${problem}`);
      }
      for (let i = 0; i < notifications.length; i += PER_COMMIT) {
        const chunk = notifications.slice(i, i + PER_COMMIT);
        await docs.transact(async (tx) => {
          for (const n of chunk) tx.put('customsRates', n);
        });
      }
      return notifications.length;
    },
    async listCustomsRates() {
      return docs.list('customsRates', [], { order: 'asc' });
    },
  };
}
