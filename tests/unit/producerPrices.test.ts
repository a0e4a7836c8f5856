/** Producer list prices, pure: the catalog, revisions computed from the lists, the lists in force, the filters, and the demo history. */
import { describe, expect, it } from 'vitest';
import { generateDemoData } from '../../src/lib/demoData.ts';
import { historicalSeriesId } from '../../src/lib/seriesCatalog.ts';
import { basisShort } from '../../src/lib/basis.ts';
import { revisionTickerItems, tickerDirection } from '../../src/lib/home.ts';
import { PRODUCERS } from '../../src/lib/delivery/producers.ts';
import { generateProducerDemo, marketFromSeries, REVISION_GAP_DAYS, REVISION_STEP } from '../../src/lib/producerDemo.ts';
import { daysBetween } from '../../src/lib/dates.ts';
import {
  currentLists,
  findListLine,
  LIST_LINES,
  listBasis,
  listFilterOf,
  listPriceProblem,
  matchesFilter,
  monthsOf,
  producerPriceRecord,
  revisionsOf,
  revisionsOnly,
} from '../../src/lib/producerPrices.ts';

const AT = { at: new Date('2026-11-24T06:00:00Z'), by: 'desk' };
const raffia = findListLine('reliance.ppRaffia.jamnagar')!;
const depot = findListLine('reliance.ppRaffia.mumbai-depot')!;
const gail = findListLine('gail.hdpeFilm.pata')!;

describe('the catalog of list lines', () => {
  it('names producers the bot knows, with ex-works plants and ex-depot depots, and a list-price basis', () => {
    for (const line of LIST_LINES) expect(PRODUCERS.map((p) => p.id)).toContain(line.producer.id);
    expect(new Set(LIST_LINES.map((l) => l.producer.id))).toEqual(new Set(['reliance', 'iocl', 'gail', 'haldia', 'opal', 'hmel', 'bcpl']));
    expect(basisShort(listBasis(raffia))).toBe('ex-works Jamnagar list price, excl. 18% GST, ₹/kg');
    expect(basisShort(listBasis(depot))).toBe('ex-depot Mumbai list price, excl. 18% GST, ₹/kg');
    expect(listBasis(raffia)).toMatchObject({ kind: 'list', methodology: 'producer-prices', publication: { frequency: 'as-revised' } });
  });
});

describe('revisions', () => {
  const records = [
    producerPriceRecord(raffia, '2026-11-02', 100, AT),
    producerPriceRecord(raffia, '2026-11-16', 102.5, AT),
    producerPriceRecord(raffia, '2026-11-09', 101, AT),
    producerPriceRecord(depot, '2026-11-09', 104, AT),
    producerPriceRecord(gail, '2026-10-28', 108, AT),
    producerPriceRecord(gail, '2026-11-16', 106.5, AT),
  ];

  it('are the change against the previous list of the same producer, grade and place, newest first', () => {
    const revisions = revisionsOf(records);
    expect(revisions.map((r) => [r.record.id, r.change, r.previous?.effective ?? null])).toEqual([
      ['reliance.ppRaffia.jamnagar.2026-11-16', 1.5, '2026-11-09'],
      ['gail.hdpeFilm.pata.2026-11-16', -1.5, '2026-10-28'],
      ['reliance.ppRaffia.jamnagar.2026-11-09', 1, '2026-11-02'],
      ['reliance.ppRaffia.mumbai-depot.2026-11-09', null, null],
      ['reliance.ppRaffia.jamnagar.2026-11-02', null, null],
      ['gail.hdpeFilm.pata.2026-10-28', null, null],
    ]);
    expect(revisionsOnly(revisions)).toHaveLength(3);
  });

  it('the lists in force on a day are each line’s latest effective on or before it', () => {
    expect(currentLists(records, '2026-11-15').map((r) => [r.record.id, r.change])).toEqual([
      ['reliance.ppRaffia.jamnagar.2026-11-09', 1],
      ['reliance.ppRaffia.mumbai-depot.2026-11-09', null],
      ['gail.hdpeFilm.pata.2026-10-28', null],
    ]);
  });

  it('filter by producer, product and month; unknown filter values show everything', () => {
    const revisions = revisionsOf(records);
    const pick = (q: string) => revisions.filter((r) => matchesFilter(r, listFilterOf(new URLSearchParams(q)))).map((r) => r.record.id);
    expect(pick('producer=gail')).toEqual(['gail.hdpeFilm.pata.2026-11-16', 'gail.hdpeFilm.pata.2026-10-28']);
    expect(pick('product=HDPE&month=2026-11')).toEqual(['gail.hdpeFilm.pata.2026-11-16']);
    expect(pick('producer=nobody&product=<b>&month=2026-13')).toHaveLength(records.length);
    expect(monthsOf(revisions)).toEqual(['2026-11', '2026-10']);
  });
});

describe('the desk’s input rules', () => {
  const NOW = new Date('2026-11-24T20:00:00Z'); // 25 Nov, 01:30 in India
  const good = { producer: 'reliance', grade: 'ppRaffia', location: 'jamnagar', effective: '2026-11-25', value: 104.5 };
  it('accepts today in India, and refuses tomorrow, another producer’s place, or a value off the scale', () => {
    expect(listPriceProblem(good, NOW)).toBeNull();
    expect(listPriceProblem({ ...good, effective: '2026-11-26' }, NOW)?.field).toBe('effective');
    expect(listPriceProblem({ ...good, location: 'panipat' }, NOW)?.field).toBe('location');
    expect(listPriceProblem({ ...good, value: 104.555 }, NOW)?.field).toBe('value');
    expect(listPriceProblem({ ...good, value: 4 }, NOW)?.field).toBe('value');
  });
});

describe('the demo history', () => {
  const today = '2026-11-24';
  const data = generateDemoData({ today });
  const market = marketFromSeries((grade) => data.points.get(historicalSeriesId(grade, 'Mumbai')) ?? []);
  const records = generateProducerDemo({ today, market });

  it('gives every line a list, revisions of at least the step at most once a fortnight, none after today, deterministically', () => {
    expect(new Set(records.map((r) => `${r.producer}.${r.grade}.${r.location}`)).size).toBe(LIST_LINES.length);
    const revisions = revisionsOnly(revisionsOf(records));
    expect(revisions.length).toBeGreaterThan(LIST_LINES.length);
    for (const r of revisions) {
      expect(Math.abs(r.change!)).toBeGreaterThanOrEqual(REVISION_STEP);
      expect(daysBetween(r.previous!.effective, r.record.effective)).toBeGreaterThanOrEqual(REVISION_GAP_DAYS);
    }
    // About two revisions a month per line at most, as producers revise.
    expect(revisions.length).toBeLessThan(LIST_LINES.length * 27);
    expect(records.every((r) => r.effective <= today && r.value * 2 === Math.round(r.value * 2))).toBe(true);
    expect(generateProducerDemo({ today, market })).toEqual(records);
  });

  it('follows the market: a list sits near the demo’s Mumbai ex-works price without GST', () => {
    const reliance = currentLists(records, today).find((r) => r.line.id === 'reliance.ppRaffia.jamnagar')!;
    expect(Math.abs(reliance.record.value - market('ppRaffia', today)!)).toBeLessThan(5);
  });
});

describe('revisions on the home ticker', () => {
  const at = (iso: string) => ({ at: new Date(iso), by: 'desk' });
  const iocl = findListLine('iocl.ppRaffia.panipat')!;
  const ioclDelhi = findListLine('iocl.ppRaffia.delhi-depot')!;
  const records = [
    producerPriceRecord(raffia, '2026-11-02', 100, at('2026-11-02T10:00:00Z')),
    producerPriceRecord(raffia, '2026-11-23', 102, at('2026-11-23T10:00:00Z')),
    producerPriceRecord(iocl, '2026-10-01', 101, at('2026-10-01T10:00:00Z')),
    producerPriceRecord(iocl, '2026-11-24', 100, at('2026-11-24T10:00:00Z')),
    producerPriceRecord(ioclDelhi, '2026-10-01', 103, at('2026-10-01T10:00:00Z')),
    producerPriceRecord(ioclDelhi, '2026-11-24', 104, at('2026-11-24T11:00:00Z')),
    producerPriceRecord(gail, '2026-10-01', 108, at('2026-10-01T10:00:00Z')),
    producerPriceRecord(gail, '2026-11-01', 109, at('2026-11-01T10:00:00Z')),
  ];

  it('shows each producer’s latest revision of the last two weeks (the last entered on its day), newest first, with ± and basis', () => {
    const items = revisionTickerItems(revisionsOf(records), '2026-11-24');
    expect(items.map((i) => [i.id, i.change])).toEqual([
      ['revision.iocl.ppRaffia.delhi-depot.2026-11-24', 1],
      ['revision.reliance.ppRaffia.jamnagar.2026-11-23', 2],
    ]);
    expect(items[1]).toEqual({
      id: 'revision.reliance.ppRaffia.jamnagar.2026-11-23',
      label: 'Reliance (RIL) PP Raffia list',
      unit: '₹/kg',
      decimals: 2,
      place: 'ex-works Jamnagar',
      basis: 'ex-works Jamnagar list price, excl. 18% GST, ₹/kg',
      value: 102,
      date: '2026-11-23',
      change: 2,
      changePct: 2,
    });
    expect(tickerDirection(items[0]!)).toMatchObject({ label: 'Indian Oil (IOCL) PP Raffia list', direction: 'up' });
  });
});
