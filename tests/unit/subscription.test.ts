import { describe, expect, it } from 'vitest';
import { RENEWAL_WINDOW_DAYS, renewalDue } from '../../src/lib/access/policy.ts';
import { findPlan, plans } from '../../src/lib/plans.ts';
import { daysLeft, expiryAfterPlanPurchase, expiryAfterPurchase, planForRequest, priceOf, purchaseStartsAt, renewalText } from '../../src/lib/subscription.ts';

const NOW = new Date('2026-11-22T04:30:00.000Z');
const DAY = 86_400_000;

describe('plan pricing', () => {
  it('prices every plan from the table, in paise', () => {
    expect(plans.map((p) => [p.id, priceOf(p.id)])).toEqual([
      ['Basic', 550_000],
      ['Standard', 1_000_000],
      ['Premium', 1_500_000],
      ['Platinum', 2_500_000],
    ]);
    expect(priceOf('premium')).toBe(1_500_000);
    expect(priceOf('Gold')).toBeUndefined();
  });

  it('takes {plan} over {amount}, and {amount} only when it is exactly a plan price in rupees', () => {
    expect(planForRequest({ plan: 'Premium' })?.id).toBe('Premium');
    expect(planForRequest({ plan: 'Premium', amount: 1 })?.id).toBe('Premium');
    expect(planForRequest({ plan: 'Gold', amount: 15_000 })).toBeUndefined();
    expect(planForRequest({ amount: 5_500 })?.id).toBe('Basic');
    expect(planForRequest({ amount: 25_000 })?.id).toBe('Platinum');
    expect(planForRequest({ amount: 1 })).toBeUndefined();
    expect(planForRequest({ amount: 5_500.5 })).toBeUndefined();
    expect(planForRequest({ amount: 550_000 })).toBeUndefined(); // paise are not rupees
    expect(planForRequest({})).toBeUndefined();
  });
});

describe('expiry after a purchase', () => {
  const year = findPlan('Premium')!.durationDays;

  it('a first purchase runs a year from now', () => {
    expect(expiryAfterPurchase(null, year, NOW)).toBe('2027-11-22T04:30:00.000Z');
    expect(expiryAfterPurchase({ subscribed: false, expiresAt: null }, year, NOW)).toBe('2027-11-22T04:30:00.000Z');
  });

  it('a renewal before expiry extends from the old expiry: no paid day is lost', () => {
    const record = { subscribed: true, expiresAt: '2026-12-01T00:00:00.000Z' };
    expect(purchaseStartsAt(record, NOW).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(expiryAfterPurchase(record, year, NOW)).toBe('2027-12-01T00:00:00.000Z');
  });

  it('a renewal after expiry starts from now', () => {
    const record = { subscribed: true, expiresAt: '2026-11-01T00:00:00.000Z' };
    expect(expiryAfterPurchase(record, year, NOW)).toBe('2027-11-22T04:30:00.000Z');
  });

  it('an unsubscribed record with a stale expiry, or a broken expiry, starts from now', () => {
    expect(expiryAfterPurchase({ subscribed: false, expiresAt: '2030-01-01T00:00:00.000Z' }, year, NOW)).toBe('2027-11-22T04:30:00.000Z');
    expect(expiryAfterPurchase({ subscribed: true, expiresAt: 'soon' }, year, NOW)).toBe('2027-11-22T04:30:00.000Z');
  });

  it('refuses a nonsense duration', () => {
    expect(() => expiryAfterPurchase(null, 0, NOW)).toThrow(RangeError);
    expect(() => expiryAfterPurchase(null, 1.5, NOW)).toThrow(RangeError);
  });
});

describe('days left and the renewal invitation', () => {
  const at = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString();

  it('counts whole days left, rounding up, and 0 once lapsed', () => {
    expect(daysLeft(at(3), NOW)).toBe(3);
    expect(daysLeft(at(2.2), NOW)).toBe(3);
    expect(daysLeft(at(-1), NOW)).toBe(0);
    expect(daysLeft(null, NOW)).toBeNull();
    expect(daysLeft('not a date', NOW)).toBeNull();
  });

  it('invites renewal only inside the window, agreeing with the access policy', () => {
    expect(renewalText(at(16), NOW, RENEWAL_WINDOW_DAYS)).toBeNull();
    expect(renewalText(at(15), NOW, RENEWAL_WINDOW_DAYS)).toBe('Renew in 15 days');
    expect(renewalText(at(0.5), NOW, RENEWAL_WINDOW_DAYS)).toBe('Renew in 1 day');
    expect(renewalText(at(-0.5), NOW, RENEWAL_WINDOW_DAYS)).toBeNull();
    for (const days of [20, 15.5, 15, 14.9, 3, 0.1, -1]) {
      const expiresAt = at(days);
      expect(renewalText(expiresAt, NOW, RENEWAL_WINDOW_DAYS) !== null, `${days} days`).toBe(renewalDue({ subscribed: true, expiresAt }, NOW));
    }
  });
});

describe('buying a plan over another', () => {
  const NOW2 = new Date('2026-11-22T00:00:00.000Z');
  const inDays = (days: number) => new Date(NOW2.getTime() + days * 86_400_000).toISOString();
  const plan = (id: string) => planForRequest({ plan: id })!;

  it('carries every remaining day over when renewing the same plan', () => {
    expect(expiryAfterPlanPurchase({ subscribed: true, plan: 'Premium', expiresAt: inDays(100) }, plan('Premium'), NOW2)).toBe(inDays(465));
  });

  it('converts days left on a cheaper plan at the price ratio: no cheap route to Premium', () => {
    // 730 days of Basic (₹11,000 paid) are worth 267.6 days of Premium, not 730.
    const after = expiryAfterPlanPurchase({ subscribed: true, plan: 'Basic', expiresAt: inDays(730) }, plan('Premium'), NOW2);
    expect((Date.parse(after) - NOW2.getTime()) / 86_400_000).toBeCloseTo(365 + (730 * 5500) / 15000, 3);
  });

  it('gives more days of a cheaper plan for days left on a dearer one', () => {
    const after = expiryAfterPlanPurchase({ subscribed: true, plan: 'Platinum', expiresAt: inDays(100) }, plan('Basic'), NOW2);
    expect((Date.parse(after) - NOW2.getTime()) / 86_400_000).toBeCloseTo(365 + (100 * 25000) / 5500, 3);
  });

  it('starts from now without a current subscription, and values an unknown plan like the one bought', () => {
    expect(expiryAfterPlanPurchase(null, plan('Standard'), NOW2)).toBe(inDays(365));
    expect(expiryAfterPlanPurchase({ subscribed: true, plan: 'Basic', expiresAt: inDays(-5) }, plan('Premium'), NOW2)).toBe(inDays(365));
    expect(expiryAfterPlanPurchase({ subscribed: true, plan: 'Enterprise', expiresAt: inDays(10) }, plan('Premium'), NOW2)).toBe(inDays(375));
  });
});
