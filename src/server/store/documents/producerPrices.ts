/** Producer list prices (../producerPrices.ts), written once over the document driver. */
import { PRODUCER_IMPORT_TARGET, producerPricesTarget, type ProducerPriceRecord, type ProducerPriceStore } from '../producerPrices.ts';
import type { DocumentDriver } from './driver.ts';

export function createProducerPriceStore(docs: DocumentDriver): ProducerPriceStore {
  return {
    listProducerPrices: (producer) => docs.list('producerPrices', producer === undefined ? [] : [{ index: 'producer', value: producer }]),

    adminWriteProducerPrices({ records, actor, now, via, dryRun }) {
      return docs.transact(async (tx) => {
        // Read everything first (writes are held until the work returns): the producers' lists, a few hundred records each.
        const held = new Map<string, ProducerPriceRecord>();
        for (const producer of new Set(records.map((r) => r.producer))) for (const r of await tx.list('producerPrices', [{ index: 'producer', value: producer }])) held.set(r.id, r);
        const changed = records.flatMap((record) => (held.get(record.id)?.value === record.value ? [] : [{ record, before: held.get(record.id) ?? null }]));
        if (dryRun || changed.length === 0) return { rows: records.length, written: changed.map((c) => c.record), entry: null };
        const producers = [...new Set(changed.map((c) => c.record.producer))];
        const entry = await tx.audit({
          at: now.toISOString(),
          actor,
          action: via === 'form' ? 'producerPrice.set' : 'producerPrice.import',
          target: producers.length === 1 ? producerPricesTarget(producers[0]!) : PRODUCER_IMPORT_TARGET,
          before: { prices: changed.flatMap((c) => (c.before ? [{ id: c.before.id, value: c.before.value, enteredAt: c.before.enteredAt }] : [])) },
          after: { rows: records.length, prices: changed.map((c) => ({ id: c.record.id, value: c.record.value })) },
        });
        for (const { record } of changed) tx.put('producerPrices', record);
        return { rows: records.length, written: changed.map((c) => c.record), entry };
      });
    },
  };
}
