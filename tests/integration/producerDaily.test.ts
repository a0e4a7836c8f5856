/**
 * Which producer revisions a daily update carries (src/server/delivery/dailyUpdate.ts,
 * `dailyRevisionsOf`), on a store of its own: the desk's revisions of the last 24 hours,
 * effective within the week, on the polymers the reader follows, for a plan that opens the
 * revisions screen; never the demo's seeded history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, isoDateOf } from '../../src/lib/dates.ts';
import { DEMO_ENTERED_BY } from '../../src/lib/producerDemo.ts';
import { findListLine, producerPriceRecord } from '../../src/lib/producerPrices.ts';
import { dailyRevisionsOf } from '../../src/server/delivery/dailyUpdate.ts';
import type { Store } from '../../src/server/store/index.ts';
import { freshStore, userRecordOf } from './helpers.ts';

const NOW = new Date();
const today = isoDateOf(NOW);
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);
const premium = { uid: 'pd-premium', record: userRecordOf('pd-premium', { subscribed: true, plan: 'Premium', expiresAt: addDays(today, 300) + 'T00:00:00.000Z' }) };
const basic = { uid: 'pd-basic', record: userRecordOf('pd-basic', { subscribed: true, plan: 'Basic', expiresAt: addDays(today, 300) + 'T00:00:00.000Z' }) };
const SITE = 'https://polyindex.in';
let store: Store;

beforeAll(async () => {
  store = await freshStore();
  const ril = findListLine('reliance.ppRaffia.jamnagar')!;
  const iocl = findListLine('iocl.ppRaffia.panipat')!;
  const gail = findListLine('gail.hdpeFilm.pata')!;
  const opal = findListLine('opal.ppRaffia.dahej')!;
  const old = { at: hoursAgo(24 * 40), by: 'desk' };
  await store.importRecords('producerPrices', [
    producerPriceRecord(ril, addDays(today, -20), 100, old),
    producerPriceRecord(ril, today, 101.5, { at: hoursAgo(2), by: 'desk' }),
    producerPriceRecord(gail, addDays(today, -20), 110, old),
    producerPriceRecord(gail, today, 108, { at: hoursAgo(3), by: 'desk' }),
    // The demo's seeded history, entered "now": not news.
    producerPriceRecord(iocl, addDays(today, -20), 100, old),
    producerPriceRecord(iocl, today, 99, { at: hoursAgo(1), by: DEMO_ENTERED_BY }),
    // A correction of an old list entered now, and a revision entered two days ago: not in this update.
    producerPriceRecord(opal, addDays(today, -40), 95, old),
    producerPriceRecord(opal, addDays(today, -30), 96, { at: hoursAgo(1), by: 'desk' }),
    producerPriceRecord(opal, today, 97, { at: hoursAgo(50), by: 'desk' }),
  ]);
});

afterAll(async () => {
  await store.close();
});

describe('the producer revisions of a daily update', () => {
  it('are the desk’s recent revisions on the polymers the reader follows, newest entry first', async () => {
    const pp = await dailyRevisionsOf(store, SITE, premium, NOW, new Set(['PP']));
    expect(pp.map((r) => [r.producer.id, r.grade, r.place, r.latest.value, r.previous.value])).toEqual([['reliance', 'ppRaffia', 'ex-works Jamnagar', 101.5, 100]]);
    expect(pp[0]!.screen).toBe(`${SITE}/indian-bazaar/rateRevision`);
    const both = await dailyRevisionsOf(store, SITE, premium, NOW, new Set(['PP', 'HDPE']));
    expect(both.map((r) => r.producer.id)).toEqual(['reliance', 'gail']);
  });

  it('are none for a reader who follows no polymer, or whose plan does not open the revisions', async () => {
    expect(await dailyRevisionsOf(store, SITE, premium, NOW, new Set())).toEqual([]);
    expect(await dailyRevisionsOf(store, SITE, basic, NOW, new Set(['PP', 'HDPE']))).toEqual([]);
    expect(await dailyRevisionsOf(store, SITE, null, NOW, new Set(['PP']))).toEqual([]);
  });
});
