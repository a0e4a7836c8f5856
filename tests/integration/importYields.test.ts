/**
 * A large import does not stall readers: while a 20,000-row import is being written (one
 * transaction, all or nothing), reads on the same store are answered before it commits.
 * (How long it takes is for `npm run bench`; this proves the interleaving.)
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/lib/dates.ts';
import { allSeries } from '../../src/lib/seriesCatalog.ts';
import { seedDemoPrices } from '../../src/server/store/seedDemo.ts';
import { freshStore } from './helpers.ts';

describe('imports and readers', () => {
  it('answers reads while an import is being written, and the import still lands whole', async () => {
    const store = await freshStore();
    await store.upsertSeries(allSeries);
    await seedDemoPrices(store, '2026-11-20');
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ series: 'fx.usdinr', date: addDays('1950-01-01', i), value: 83 + (i % 7) / 10 }));
    let committed = false;
    const importing = store.adminImportPoints({ rows, actor: { uid: 'admin', email: null }, now: new Date(), dryRun: false }).then((result) => {
      committed = true;
      return result;
    });
    let readsBeforeCommit = 0;
    while (!committed && readsBeforeCommit < 1000) {
      await nextTurn();
      if ((await store.latestPoints('feedstock.naphtha.japan', 5)).length === 5 && !committed) readsBeforeCommit++;
    }
    const result = await importing;
    expect(readsBeforeCommit).toBeGreaterThan(3);
    expect(result.changed).toBe(20_000);
    expect((await store.points('fx.usdinr', { from: '1950-01-01', to: addDays('1950-01-01', 19_999) })).length).toBe(20_000);
    await store.close();
  });
});
