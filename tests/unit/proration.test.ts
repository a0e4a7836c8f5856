import { describe, expect, it } from 'vitest';
import { findPlan, plans, type Plan } from '../../src/lib/plans.ts';
import { creditFor, MIN_CHARGE_PAISE, quotePurchase, unusedDays } from '../../src/lib/proration.ts';

const NOW = new Date('2026-11-22T04:30:00.000Z');
const DAY = 86_400_000;
const plan = (id: string): Plan => findPlan(id)!;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);
const active = (id: string, daysLeft: number) => ({ subscribed: true, plan: id, expiresAt: at(daysLeft).toISOString() });

describe('unused days', () => {
  it.each([
    [10.9, 10],
    [10, 10],
    [0.5, 0],
    [-3, 0],
    [365, 365],
  ])('%f days left → %i whole unused days', (left, whole) => expect(unusedDays(at(left), NOW)).toBe(whole));
});

describe('a new purchase and a renewal', () => {
  it('charges the price and starts now without a current plan (none, lapsed, or not subscribed)', () => {
    for (const record of [null, {}, { subscribed: true, plan: 'Basic', expiresAt: at(-1).toISOString() }, { subscribed: false, plan: 'Basic', expiresAt: at(100).toISOString() }, { subscribed: true, plan: 'Basic', expiresAt: 'junk' }]) {
      expect(quotePurchase(record, plan('Premium'), NOW)).toEqual({ kind: 'new', plan: plan('Premium'), chargePaise: 1_500_000, startsAt: NOW, endsAt: at(365) });
    }
  });

  it('extends a running plan from its end date at the full price (the same plan, a cheaper one, or one the table no longer knows)', () => {
    expect(quotePurchase(active('Premium', 10), plan('Premium'), NOW)).toEqual({ kind: 'renewal', plan: plan('Premium'), after: plan('Premium'), chargePaise: 1_500_000, startsAt: at(10), endsAt: at(375) });
    expect(quotePurchase(active('Platinum', 40), plan('Basic'), NOW)).toMatchObject({ kind: 'renewal', chargePaise: 550_000, startsAt: at(40), endsAt: at(405) });
    expect(quotePurchase(active('Enterprise', 40), plan('Basic'), NOW)).toMatchObject({ kind: 'renewal', after: null, chargePaise: 550_000, startsAt: at(40) });
  });
});

describe('a mid-term upgrade', () => {
  // from, to, days left → credit, charge (paise): credit = floor(old price × days ÷ 365).
  it.each([
    ['Basic', 'Premium', 200, 301_369, 1_198_631],
    ['Basic', 'Premium', 365, 550_000, 950_000],
    ['Basic', 'Platinum', 1, 1_506, 2_498_494],
    ['Standard', 'Premium', 100, 273_972, 1_226_028],
    ['Standard', 'Platinum', 182, 498_630, 2_001_370],
    ['Premium', 'Platinum', 364, 1_495_890, 1_004_110],
    ['Premium', 'Platinum', 0.5, 0, 2_500_000],
  ])('%s → %s with %f days left: credit %i, charge %i', (from, to, left, credit, charge) => {
    const quote = quotePurchase(active(from, left), plan(to), NOW);
    expect(quote).toEqual({
      kind: 'upgrade',
      plan: plan(to),
      from: plan(from),
      unusedDays: Math.floor(left),
      creditPaise: credit,
      extraDays: 0,
      chargePaise: charge,
      startsAt: NOW,
      endsAt: at(365),
    });
    expect(credit + charge).toBe(plan(to).pricePaise);
  });

  it('turns a credit worth more than the new plan into extra days of it, and charges nothing', () => {
    // 1,000 days of Basic (renewed ahead) are worth ₹15,068.49: Premium's ₹15,000 and ₹68.49 over,
    // which buys 1 whole day of Premium (₹41.10 a day).
    const quote = quotePurchase(active('Basic', 1000), plan('Premium'), NOW);
    expect(quote).toMatchObject({ kind: 'upgrade', unusedDays: 1000, creditPaise: 1_506_849, extraDays: 1, chargePaise: 0, startsAt: NOW, endsAt: at(366) });
  });

  it('never drifts: every pair and every day count adds up in whole paise, and no charge is under ₹1', () => {
    const wrong: string[] = [];
    for (const from of plans) {
      for (const to of plans.filter((p) => p.pricePaise > from.pricePaise)) {
        for (let days = 0; days <= 1_500; days++) {
          const quote = quotePurchase(active(from.id, days + 0.25), to, NOW);
          if (quote.kind !== 'upgrade') {
            wrong.push(`${from.id}→${to.id} ${days}: ${quote.kind}`);
            continue;
          }
          const credit = creditFor(from, days);
          const integers = [quote.creditPaise, quote.chargePaise, quote.extraDays].every(Number.isSafeInteger);
          // Paid: credit + charge is the new price. Not paid: the credit covers it, and the days added are what is left, rounded down.
          const sums = quote.chargePaise > 0 ? credit + quote.chargePaise === to.pricePaise : credit >= to.pricePaise - MIN_CHARGE_PAISE;
          const left = credit - to.pricePaise;
          const days_ = left > 0 ? quote.extraDays * to.pricePaise <= left * to.durationDays && (quote.extraDays + 1) * to.pricePaise > left * to.durationDays : quote.extraDays === 0;
          const length = quote.endsAt.getTime() - quote.startsAt.getTime() === (to.durationDays + quote.extraDays) * DAY;
          if (!integers || !sums || !days_ || !length || quote.creditPaise !== credit || (quote.chargePaise > 0 && quote.chargePaise < MIN_CHARGE_PAISE)) {
            wrong.push(`${from.id}→${to.id} ${days}: ${JSON.stringify({ ...quote, plan: undefined, from: undefined })}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('prices from the plan table only', () => {
    expect(creditFor(plan('Basic'), 365)).toBe(plan('Basic').pricePaise);
    expect(creditFor(plan('Basic'), 0)).toBe(0);
    expect(() => creditFor(plan('Basic'), -1)).toThrow(RangeError);
    expect(() => creditFor(plan('Basic'), 1.5)).toThrow(RangeError);
  });
});
