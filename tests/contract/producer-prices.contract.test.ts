/** Producer list prices on both adapters: the audited write (form and import), corrections, dry runs, lists, transfer. */
import { describe, expect, it } from 'vitest';
import { findListLine, producerPriceRecord, revisionsOf, type ProducerPriceRecord } from '../../src/lib/producerPrices.ts';
import { producerPricesTarget, PRODUCER_IMPORT_TARGET } from '../../src/server/store/producerPrices.ts';
import { attempt, backends, storePerTest } from './backends.ts';

const NOW = new Date('2026-11-24T06:00:00.000Z');
const LATER = new Date('2026-11-25T07:30:00.000Z');
const ADMIN = { uid: 'admin-1', email: 'desk@polyindex.test' };
const RIL_RAFFIA = findListLine('reliance.ppRaffia.jamnagar')!;
const IOCL_RAFFIA = findListLine('iocl.ppRaffia.panipat')!;
const price = (line = RIL_RAFFIA, effective = '2026-11-10', value = 104.5, at = NOW): ProducerPriceRecord => producerPriceRecord(line, effective, value, { at, by: ADMIN.uid });

describe.each(backends)('producer list prices on $name', (backend) => {
  const store = storePerTest(backend);

  it('writes a price with its audit entry, lists it, and a revision is computed from the previous list', async () => {
    const first = await store().adminWriteProducerPrices({ records: [price()], actor: ADMIN, now: NOW, via: 'form', dryRun: false });
    expect(first.written).toEqual([price()]);
    expect(first.entry).toMatchObject({ action: 'producerPrice.set', target: producerPricesTarget('reliance'), actor: ADMIN, before: { prices: [] }, after: { rows: 1, prices: [{ id: 'reliance.ppRaffia.jamnagar.2026-11-10', value: 104.5 }] } });
    await store().adminWriteProducerPrices({ records: [price(RIL_RAFFIA, '2026-11-24', 106, LATER)], actor: ADMIN, now: LATER, via: 'form', dryRun: false });
    const held = await store().listProducerPrices('reliance');
    expect(held.map((r) => r.id).toSorted()).toEqual(['reliance.ppRaffia.jamnagar.2026-11-10', 'reliance.ppRaffia.jamnagar.2026-11-24']);
    expect(revisionsOf(held).map((r) => [r.record.effective, r.change])).toEqual([['2026-11-24', 1.5], ['2026-11-10', null]]);
    expect((await store().listAudit({ target: producerPricesTarget('reliance') })).total).toBe(2);
  });

  it('re-entering the same value changes nothing; a new value corrects the price, with the earlier one in the audit', async () => {
    await store().adminWriteProducerPrices({ records: [price()], actor: ADMIN, now: NOW, via: 'form', dryRun: false });
    const same = await store().adminWriteProducerPrices({ records: [price(RIL_RAFFIA, '2026-11-10', 104.5, LATER)], actor: ADMIN, now: LATER, via: 'form', dryRun: false });
    expect(same).toEqual({ rows: 1, written: [], entry: null });
    expect(await store().listProducerPrices()).toEqual([price()]);
    const corrected = await store().adminWriteProducerPrices({ records: [price(RIL_RAFFIA, '2026-11-10', 103, LATER)], actor: ADMIN, now: LATER, via: 'form', dryRun: false });
    expect(corrected.entry).toMatchObject({ before: { prices: [{ id: 'reliance.ppRaffia.jamnagar.2026-11-10', value: 104.5 }] }, after: { prices: [{ value: 103 }] } });
    expect(await store().listProducerPrices()).toEqual([price(RIL_RAFFIA, '2026-11-10', 103, LATER)]);
  });

  it('an import spanning producers is one write under the import target; a dry run writes nothing', async () => {
    const records = [price(), price(IOCL_RAFFIA, '2026-11-10', 105), price(IOCL_RAFFIA, '2026-11-17', 104)];
    const dry = await store().adminWriteProducerPrices({ records, actor: ADMIN, now: NOW, via: 'import', dryRun: true });
    expect(dry).toEqual({ rows: 3, written: records, entry: null });
    expect(await store().listProducerPrices()).toEqual([]);
    expect((await store().listAudit()).total).toBe(0);
    const real = await store().adminWriteProducerPrices({ records, actor: ADMIN, now: NOW, via: 'import', dryRun: false });
    expect(real.entry).toMatchObject({ action: 'producerPrice.import', target: PRODUCER_IMPORT_TARGET, after: { rows: 3 } });
    expect((await store().listProducerPrices('iocl')).map((r) => r.value).toSorted()).toEqual([104, 105]);
    expect(await store().listProducerPrices('gail')).toEqual([]);
    expect(await store().listProducerPrices()).toHaveLength(3);
  });

  it('exports and imports list prices as they are (store:copy, backups), idempotently; a record no store may hold is refused', async () => {
    await store().adminWriteProducerPrices({ records: [price(), price(IOCL_RAFFIA)], actor: ADMIN, now: NOW, via: 'import', dryRun: false });
    const exported: ProducerPriceRecord[] = [];
    for await (const page of store().exportRecords('producerPrices')) exported.push(...page);
    expect(exported).toHaveLength(2);
    const target = await backend.open();
    try {
      expect(await target.importRecords('producerPrices', exported)).toBe(2);
      expect(await target.importRecords('producerPrices', exported)).toBe(2);
      const sorted = (rs: ProducerPriceRecord[]) => rs.toSorted((a, b) => (a.id < b.id ? -1 : 1));
      expect(sorted(await target.listProducerPrices())).toEqual(sorted(exported));
      await expect(attempt(() => target.importRecords('producerPrices', [{ ...exported[0]!, value: Number.NaN }]))).rejects.toThrow(/finite/);
      await expect(attempt(() => target.importRecords('producerPrices', [{ ...exported[0]!, effective: '2026-11-11' }]))).rejects.toThrow(/id/);
      expect(await target.listProducerPrices()).toHaveLength(2);
    } finally {
      await target.close();
    }
  });
});
