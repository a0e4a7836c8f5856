import { describe, expect, it } from 'vitest';
import { accountPlan } from '../../src/lib/account.ts';
import { purchaseLineText } from '../../src/lib/gst/purchaseLine.ts';

// 10:00 IST on 22 Nov 2026.
const NOW = new Date('2026-11-22T04:30:00Z');
const DAY = 86_400_000;
const after = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString();
const record = (extra: Record<string, unknown>) => ({ role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra });

describe('/account: the plan and what may be bought', () => {
  it('a running Basic plan: renew it, or upgrade to each dearer plan at the price less its unused days', () => {
    const account = accountPlan(record({ subscribed: true, plan: 'Basic', expiresAt: after(200), subscribedAt: after(-165) }), NOW);
    expect(account).toMatchObject({ status: 'active', planName: 'Basic', startsOn: '10th Jun 2026', endsOn: '10th Jun 2027' });
    expect(account.offers.map((o) => [o.plan.id, o.quote.kind, o.quote.chargePaise, o.label])).toEqual([
      ['Basic', 'renewal', 550_000, 'Renew Basic for ₹5,500'],
      ['Standard', 'upgrade', 698_631, 'Upgrade to Standard for ₹6,986.31'],
      ['Premium', 'upgrade', 1_198_631, 'Upgrade to Premium for ₹11,986.31'],
      ['Platinum', 'upgrade', 2_198_631, 'Upgrade to Platinum for ₹21,986.31'],
    ]);
    expect(account.offers[2]!.detail).toBe('₹15,000 less ₹3,013.69 for the 200 unused days of Basic; Premium starts now and runs until 22nd Nov 2027.');
    // 365 days after 10 Jun 2027 (2028 has a 29 February).
    expect(account.offers[0]!.detail).toBe('Adds a year after your current term: runs until 9th Jun 2028.');
  });

  it('a running Platinum plan can only be renewed; the term start is the current invoice term when known', () => {
    const account = accountPlan(record({ subscribed: true, plan: 'Platinum', expiresAt: after(30) }), NOW, after(-335));
    expect(account.offers.map((o) => o.label)).toEqual(['Renew Platinum for ₹25,000']);
    expect(account.startsOn).toBe('22nd Dec 2025');
  });

  it('no plan, a trial and an ended plan: every plan is a new purchase', () => {
    for (const [facts, status] of [
      [record({ createdAt: '01-01-2026' }), 'none'],
      [record({ createdAt: '22-11-2026' }), 'trial'],
      [record({ subscribed: true, plan: 'Premium', expiresAt: after(-3) }), 'ended'],
    ] as const) {
      const account = accountPlan(facts, NOW);
      expect(account.status).toBe(status);
      expect(account.offers.map((o) => o.quote.kind)).toEqual(['new', 'new', 'new', 'new']);
      expect(account.offers.map((o) => o.label)).toEqual(['Pay ₹5,500 for Basic', 'Pay ₹10,000 for Standard', 'Pay ₹15,000 for Premium', 'Pay ₹25,000 for Platinum']);
    }
    expect(accountPlan(record({ subscribed: true, plan: 'Premium', expiresAt: after(-3) }), NOW)).toMatchObject({ planName: 'Premium', endsOn: '19th Nov 2026' });
  });
});

describe("an invoice line's words", () => {
  const term = { startsAt: NOW.toISOString(), endsAt: after(365) };
  it('names the plan and the days of its term, and an upgrade its credit', () => {
    expect(purchaseLineText('Premium', { kind: 'new', fromPlan: null, creditPaise: 0, ...term })).toBe(
      'PolyIndex Premium plan: online price information service, 22nd Nov 2026 to 22nd Nov 2027',
    );
    expect(purchaseLineText('Basic', { kind: 'renewal', fromPlan: null, creditPaise: 0, ...term })).toMatch(/\(renewal\)$/);
    expect(purchaseLineText('Premium', { kind: 'upgrade', fromPlan: 'Basic', creditPaise: 301_369, ...term })).toMatch(/\(upgrade from Basic; ₹3,013\.69 credited for its unused days\)$/);
  });
});
