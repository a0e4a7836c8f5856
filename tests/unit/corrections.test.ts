/** Issue 20: a corrected past price shows when it was corrected and its earlier value (src/lib/corrections.ts). */
import { describe, expect, it } from 'vitest';
import { correctionKey, correctionsOf, correctionWords, pointCorrections, stillCurrent, type AuditFacts } from '../../src/lib/corrections.ts';

const entry = (at: string, action: string, before: Record<string, unknown> | null, after: Record<string, unknown> | null): AuditFacts => ({ at, action, before, after });

describe('corrections from the audit log', () => {
  it('reads a change of a published point as a correction, and adds and deletions as none', () => {
    const corrections = correctionsOf([
      entry('2026-11-16T12:00:00.000Z', 'price.add', null, { date: '2026-11-16', value: 612 }),
      entry('2026-11-17T05:00:00.000Z', 'price.change', { date: '2026-11-16', value: 612 }, { date: '2026-11-16', value: 615.5 }),
      entry('2026-11-18T05:00:00.000Z', 'price.delete', { date: '2026-11-10', value: 600 }, null),
      entry('2026-11-18T05:00:00.000Z', 'price.import', null, { rows: 3, changed: 1 }),
    ]);
    expect([...corrections.values()]).toEqual([
      { date: '2026-11-16', item: '', value: 615.5, previous: 612, first: 612, correctedOn: '2026-11-17', correctedAt: '2026-11-17T05:00:00.000Z', times: 1 },
    ]);
  });

  it('keeps the latest correction and the value first published, whatever the order it is given', () => {
    const corrections = correctionsOf([
      entry('2026-11-19T05:00:00.000Z', 'price.change', { date: '2026-11-16', value: 615.5 }, { date: '2026-11-16', value: 614 }),
      entry('2026-11-17T05:00:00.000Z', 'price.change', { date: '2026-11-16', value: 612 }, { date: '2026-11-16', value: 615.5 }),
    ]);
    const c = corrections.get('2026-11-16')!;
    expect(c).toMatchObject({ value: 614, previous: 615.5, first: 612, times: 2, correctedOn: '2026-11-19' });
    expect(correctionWords(c, { unit: 'US$/t' })).toBe('corrected on 19th Nov 2026, was 615.50; first published 612.00');
  });

  it('dates a correction on India’s calendar (20:00 UTC is the next morning in Mumbai)', () => {
    const c = correctionsOf([entry('2026-11-16T20:00:00.000Z', 'price.change', { date: '2026-11-16', value: 1 }, { date: '2026-11-16', value: 2 })]);
    expect(c.get('2026-11-16')?.correctedOn).toBe('2026-11-17');
  });

  it('reads city sheets by grade and offers grade by grade', () => {
    const city = correctionsOf([entry('2026-11-17T05:00:00.000Z', 'citywise.change', { grade: 'ppRaffia', date: '2026-11-16', value: 104 }, { grade: 'ppRaffia', date: '2026-11-16', value: 104.5 })]);
    expect(city.get(correctionKey('2026-11-16', 'ppRaffia'))).toMatchObject({ item: 'ppRaffia', value: 104.5, previous: 104 });
    const offers = correctionsOf([
      entry('2026-11-17T05:00:00.000Z', 'offers.change', { date: '2026-11-16', data: { PP: { Raffia: 1085, Film: 1100 }, HDPE: { Film: 1050 } } }, { date: '2026-11-16', data: { PP: { Raffia: 1080, Film: 1100 }, LDPE: { General: 1200 } } }),
      entry('2026-11-17T06:00:00.000Z', 'offers.add', null, { date: '2026-11-17', data: { PP: { Raffia: 1070 } } }),
    ]);
    expect([...offers.keys()]).toEqual([correctionKey('2026-11-16', 'PP/Raffia')]);
    expect(offers.get('2026-11-16|PP/Raffia')).toMatchObject({ value: 1080, previous: 1085 });
  });

  it('ignores entries it cannot read rather than guessing', () => {
    expect(
      correctionsOf([
        entry('2026-11-17T05:00:00.000Z', 'price.change', { date: '2026-11-16', value: 'x' }, { date: '2026-11-16', value: 2 }),
        entry('2026-11-17T05:00:00.000Z', 'price.change', { date: '2026-11-15', value: 1 }, { date: '2026-11-16', value: 2 }),
        entry('2026-11-17T05:00:00.000Z', 'price.change', { date: '2026-11-16', value: 2 }, { date: '2026-11-16', value: 2 }),
        entry('2026-11-17T05:00:00.000Z', 'user.grant', { plan: 'Basic' }, { plan: 'Premium' }),
      ]).size,
    ).toBe(0);
  });

  it('marks only prices that still hold the corrected value (a later import leaves no known earlier value)', () => {
    const corrections = correctionsOf([
      entry('2026-11-17T05:00:00.000Z', 'price.change', { date: '2026-11-16', value: 612 }, { date: '2026-11-16', value: 615.5 }),
      entry('2026-11-17T05:00:00.000Z', 'price.change', { date: '2026-11-13', value: 600 }, { date: '2026-11-13', value: 601 }),
    ]);
    const shown = pointCorrections(corrections, [
      { date: '2026-11-13', value: 605 },
      { date: '2026-11-16', value: 615.5 },
    ]);
    expect(shown.map((c) => c.date)).toEqual(['2026-11-16']);
    expect(stillCurrent(corrections, () => undefined)).toEqual([]);
    expect(correctionWords(shown[0]!, { unit: 'US$/t', decimals: 0 })).toBe('corrected on 17th Nov 2026, was 612');
  });
});
