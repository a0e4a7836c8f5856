/** The customs exchange-rate notifications on both adapters: upsert by effective date, list in date order, refuse a bad record, transfer. */
import { describe, expect, it } from 'vitest';
import { customsRateInForce, type CustomsRateNotification } from '../../src/lib/customsRates.ts';
import { attempt, backends, storePerTest } from './backends.ts';

const NOV_5: CustomsRateNotification = { number: '64/2026-Customs (N.T.)', notifiedOn: '2026-11-05', effectiveFrom: '2026-11-06', importRate: 91.05, exportRate: 89.35 };
const NOV_19: CustomsRateNotification = { number: '67/2026-Customs (N.T.)', notifiedOn: '2026-11-19', effectiveFrom: '2026-11-20', importRate: 91.15, exportRate: 89.45 };
const OCT_15: CustomsRateNotification = { number: '61/2026-Customs (N.T.)', notifiedOn: '2026-10-15', effectiveFrom: '2026-10-16', importRate: 91.2, exportRate: 89.5 };

describe.each(backends)('customs exchange-rate notifications on $name', (backend) => {
  const store = storePerTest(backend);

  it('keeps one notification per effective date, listed oldest first, and finds the one in force', async () => {
    expect(await store().listCustomsRates()).toEqual([]);
    expect(await store().upsertCustomsRates([NOV_19, OCT_15, NOV_5])).toBe(3);
    expect(await store().listCustomsRates()).toEqual([OCT_15, NOV_5, NOV_19]);
    // Written again (a second seed, a corrected notification of the same date): replaced, not doubled.
    const corrected = { ...NOV_19, importRate: 91.1 };
    await store().upsertCustomsRates([corrected]);
    const all = await store().listCustomsRates();
    expect(all).toEqual([OCT_15, NOV_5, corrected]);
    expect(customsRateInForce(all, '2026-11-19')).toEqual(NOV_5);
    expect(customsRateInForce(all, '2026-11-20')).toEqual(corrected);
    expect(customsRateInForce(all, '2026-10-15')).toBeNull();
  });

  it('refuses a bad notification and writes nothing of its batch', async () => {
    await expect(store().upsertCustomsRates([NOV_5, { ...NOV_19, importRate: 91.123 }])).rejects.toThrow(/two decimals/);
    await expect(store().upsertCustomsRates([{ ...NOV_5, number: 'sixty-four' }])).rejects.toThrow(/number/);
    await expect(store().upsertCustomsRates([{ ...NOV_5, effectiveFrom: '2026-11-04' }])).rejects.toThrow(/on or after/);
    expect(await store().listCustomsRates()).toEqual([]);
  });

  it('exports and imports its records (store:copy, backups)', async () => {
    await store().upsertCustomsRates([OCT_15, NOV_5]);
    const exported: CustomsRateNotification[] = [];
    for await (const page of store().exportRecords('customsRates')) exported.push(...page);
    expect(exported).toEqual([OCT_15, NOV_5]);
    const target = await backend.open();
    try {
      expect(await target.importRecords('customsRates', exported)).toBe(2);
      expect(await target.listCustomsRates()).toEqual([OCT_15, NOV_5]);
      await expect(attempt(() => target.importRecords('customsRates', [{ ...NOV_19, importRate: 500 }]))).rejects.toThrow();
    } finally {
      await target.close();
    }
  });
});
