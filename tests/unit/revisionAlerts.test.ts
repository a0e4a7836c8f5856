/**
 * Revision alerts' pure rules (src/lib/delivery/revisionAlerts.ts): which announcements fire
 * (a line's list in force that changes its previous list, effective within the week, entered by
 * the desk, grouped by producer, product and date), what an alert set later fires for, the
 * targets an alert may watch, and the message in English and Hindi.
 */
import { describe, expect, it } from 'vitest';
import { addDays, isoDateOf } from '../../src/lib/dates.ts';
import {
  announcementKey,
  announcementsOf,
  firingOf,
  MAX_ALERT_LINES,
  readRevisionTarget,
  REVISION_ALERT_DAYS,
  revisionAlertParam,
  revisionAlertText,
  revisionAlertWords,
  revisionChoices,
  revisionScreenOf,
  revisionTargetId,
  revisionTargetLabel,
  revisionTargetProblem,
  watches,
  type Announcement,
} from '../../src/lib/delivery/revisionAlerts.ts';
import { findListLine, LIST_LINES, producerPriceRecord, type ProducerPriceRecord } from '../../src/lib/producerPrices.ts';

const NOW = new Date('2026-11-24T10:00:00.000Z');
const today = isoDateOf(NOW);
const at = (iso: string) => ({ at: new Date(iso), by: 'desk' });
const list = (id: string, effective: string, value: number, entered = '2026-11-24T09:00:00.000Z', by = 'desk'): ProducerPriceRecord =>
  producerPriceRecord(findListLine(id)!, effective, value, { ...at(entered), by });

describe('announcementsOf', () => {
  const old = addDays(today, -30);
  it('groups a producer’s revisions of one product from one date; leaves out first lists, re-lists at the same price, old dates, the demo seed and superseded lists', () => {
    const records = [
      list('reliance.ppRaffia.jamnagar', old, 100),
      list('reliance.ppRaffia.jamnagar', today, 101.5),
      list('reliance.ppInjectionMoulding.jamnagar', old, 104),
      list('reliance.ppInjectionMoulding.jamnagar', today, 105),
      // Reliance HDPE: another product, its own announcement.
      list('reliance.hdpeFilm.jamnagar', old, 110),
      list('reliance.hdpeFilm.jamnagar', today, 109),
      // A first list: no revision.
      list('iocl.ppRaffia.panipat', today, 99),
      // The same price again: no revision.
      list('gail.hdpeFilm.pata', old, 108),
      list('gail.hdpeFilm.pata', today, 108),
      // Effective before the week: history the desk catches up on.
      list('opal.ppRaffia.dahej', addDays(today, -40), 95),
      list('opal.ppRaffia.dahej', addDays(today, -REVISION_ALERT_DAYS - 1), 96),
      // The demo's seed.
      list('hmel.ppRaffia.bathinda', old, 95, undefined),
      list('hmel.ppRaffia.bathinda', today, 97, undefined, 'demo'),
      // A revision superseded by a later list of its line: only the list in force counts.
      list('haldia.ppRaffia.haldia', old, 90),
      list('haldia.ppRaffia.haldia', addDays(today, -3), 91),
      list('haldia.ppRaffia.haldia', addDays(today, -1), 92),
    ];
    const found = announcementsOf(records, NOW, 'demo');
    expect(found.map(announcementKey)).toEqual([`reliance.PP.${today}`, `reliance.HDPE.${today}`, `haldia.PP.${addDays(today, -1)}`]);
    expect(found[0]!.lines).toEqual([
      { line: 'reliance.ppRaffia.jamnagar', value: 101.5, previous: { date: old, value: 100 }, enteredAt: '2026-11-24T09:00:00.000Z' },
      { line: 'reliance.ppInjectionMoulding.jamnagar', value: 105, previous: { date: old, value: 104 }, enteredAt: '2026-11-24T09:00:00.000Z' },
    ]);
    expect(found[2]!.lines[0]).toMatchObject({ value: 92, previous: { value: 91 } });
  });

  it('an alert fires for the lines entered after it was set, or not at all', () => {
    const a: Announcement = {
      producer: 'reliance',
      product: 'PP',
      effective: today,
      lines: [
        { line: 'reliance.ppRaffia.jamnagar', value: 101.5, previous: { date: old, value: 100 }, enteredAt: '2026-11-24T08:00:00.000Z' },
        { line: 'reliance.ppRaffia.mumbai-depot', value: 102.5, previous: { date: old, value: 101 }, enteredAt: '2026-11-24T09:00:00.000Z' },
      ],
    };
    expect(firingOf(a, '2026-11-24T07:00:00.000Z')).toEqual(a);
    expect(firingOf(a, '2026-11-24T08:30:00.000Z')!.lines.map((l) => l.line)).toEqual(['reliance.ppRaffia.mumbai-depot']);
    expect(firingOf(a, '2026-11-24T09:30:00.000Z')).toBeNull();
  });
});

describe('targets', () => {
  it('a product with any producer, or one producer that lists it', () => {
    expect(revisionTargetId({ product: 'PP', producer: null })).toBe('revisions.PP');
    expect(revisionTargetId({ product: 'PP', producer: 'reliance' })).toBe('revisions.PP.reliance');
    expect(readRevisionTarget('revisions.PP')).toEqual({ product: 'PP', producer: null });
    expect(readRevisionTarget('revisions.PP.reliance')).toEqual({ product: 'PP', producer: 'reliance' });
    for (const id of ['revisions.GOLD', 'revisions.PP.gail', 'revisions.PP.nayara', 'revisions.PP.reliance.x', 'city.mumbai.ppRaffia', 'revisions.']) expect(readRevisionTarget(id), id).toBeNull();
    expect(revisionTargetProblem({ product: 'GOLD', producer: null })).toMatchObject({ field: 'product' });
    // GAIL lists no PP; Nayara lists nothing here.
    expect(revisionTargetProblem({ product: 'PP', producer: 'gail' })).toEqual({ field: 'producer', message: 'GAIL lists no PP.' });
    expect(revisionTargetProblem({ product: 'PP', producer: 'nayara' })).toMatchObject({ field: 'producer' });
  });

  it('watches its product, from any producer or its own', () => {
    const a = { producer: 'reliance', product: 'PP', effective: today, lines: [] };
    expect(watches({ product: 'PP', producer: null }, a)).toBe(true);
    expect(watches({ product: 'PP', producer: 'reliance' }, a)).toBe(true);
    expect(watches({ product: 'PP', producer: 'iocl' }, a)).toBe(false);
    expect(watches({ product: 'HDPE', producer: null }, a)).toBe(false);
  });

  it('the choices of /alerts are every listed product with the producers that list it', () => {
    const choices = revisionChoices();
    expect(choices.map((c) => c.product)).toEqual([...new Set(LIST_LINES.map((l) => l.product))]);
    const pp = choices.find((c) => c.product === 'PP')!;
    expect(pp.producers.map((p) => p.id)).toEqual(['reliance', 'iocl', 'haldia', 'opal', 'hmel']);
    expect(revisionTargetLabel({ product: 'PP', producer: 'reliance' })).toBe('Reliance (RIL) PP list-price revisions');
    expect(revisionTargetLabel({ product: 'PP', producer: null })).toBe('PP list-price revisions by any producer');
    expect(revisionTargetLabel({ product: 'PP', producer: null }, 'hi')).toBe('किसी भी उत्पादक के PP भाव में बदलाव');
  });
});

describe('the message', () => {
  const a: Announcement = {
    producer: 'reliance',
    product: 'PP',
    effective: today,
    lines: [
      { line: 'reliance.ppRaffia.jamnagar', value: 106, previous: { date: '2026-11-10', value: 104.5 }, enteredAt: '' },
      { line: 'reliance.ppInjectionMoulding.mumbai-depot', value: 107.5, previous: { date: '2026-11-10', value: 108.5 }, enteredAt: '' },
    ],
  };

  it('English: the producer, product and date, then each list with its ± against the previous list', () => {
    const words = revisionAlertWords(a, 'en', today);
    expect(words.headline).toBe('Producer revision: Reliance (RIL) revised PP from 24 Nov');
    expect(words.event).toBe('Reliance (RIL) revised PP list prices from 24 Nov');
    expect(words.lines).toEqual(['PP Raffia ex-works Jamnagar ₹106.00/kg ▲1.50 (1.44%)', 'PP Injection moulding ex-depot Mumbai ₹107.50/kg ▼1.00 (0.92%)']);
    expect(revisionAlertText(words, 'https://polyindex.in/x', 'en')).toBe(
      '*Producer revision: Reliance (RIL) revised PP from 24 Nov*\n• PP Raffia ex-works Jamnagar ₹106.00/kg ▲1.50 (1.44%)\n• PP Injection moulding ex-depot Mumbai ₹107.50/kg ▼1.00 (0.92%)\nhttps://polyindex.in/x\nReply STOP to end alerts.',
    );
    expect(revisionAlertParam(words)).not.toMatch(/\n/);
    expect(revisionScreenOf(a)).toBe('/indian-bazaar/rateRevision?producer=reliance&product=PP');
  });

  it('Hindi: the same facts in Hindi', () => {
    const words = revisionAlertWords(a, 'hi', today);
    expect(words.headline).toBe('उत्पादक रेट बदलाव: रिलायंस (RIL) ने PP के भाव 24 नवंबर से बदले');
    expect(words.lines[0]).toMatch(/^PP रैफ़िया ex-works Jamnagar ₹106.00\/किलो ▲1.50/);
    expect(revisionAlertText(words, 'https://polyindex.in/x', 'hi')).toMatch(/अलर्ट बंद करने के लिए STOP भेजें।$/);
  });

  it(`lists at most ${MAX_ALERT_LINES} lines, then how many more`, () => {
    const many: Announcement = { ...a, lines: Array.from({ length: MAX_ALERT_LINES + 3 }, () => a.lines[0]!) };
    const words = revisionAlertWords(many, 'en', today);
    expect(words.lines).toHaveLength(MAX_ALERT_LINES + 1);
    expect(words.lines.at(-1)).toBe('+3 more');
  });
});
