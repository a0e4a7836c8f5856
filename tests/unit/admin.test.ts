/** The admin area's pure logic: plan grant / extend / revoke maths, roles, the audit diff, counts, forms. */
import { describe, expect, it } from 'vitest';
import { actionLabel, diffFields, formatValue, targetHref, targetLabel } from '../../src/lib/admin/auditDiff.ts';
import { formBody, nestedBody } from '../../src/lib/admin/forms.ts';
import { endOfIndianDay, extendPlan, grantPlan, MAX_PLAN_DAYS, revokePlan, setRole, type Change } from '../../src/lib/admin/planChanges.ts';
import { currentSection, formatInstant, pageCount } from '../../src/lib/admin/sections.ts';
import { summarizeUsers } from '../../src/lib/admin/summary.ts';
import { isoDateOf } from '../../src/lib/dates.ts';
import { findPlan, plans } from '../../src/lib/plans.ts';

// 10:00 IST on 22 Nov 2026.
const NOW = new Date('2026-11-22T04:30:00.000Z');
const DAY = 86_400_000;
const premium = findPlan('Premium')!;

const patchOf = (change: Change) => {
  if (!change.ok) throw new Error(`refused: ${change.reason.code}`);
  return change.patch;
};
const reasonOf = (change: Change) => {
  if (change.ok) throw new Error('expected a refusal');
  return change.reason;
};

describe('endOfIndianDay', () => {
  it('is the last millisecond of that calendar day in India', () => {
    expect(endOfIndianDay('2026-12-31').toISOString()).toBe('2026-12-31T18:29:59.999Z');
    expect(isoDateOf(endOfIndianDay('2026-12-31'))).toBe('2026-12-31');
    expect(isoDateOf(new Date(endOfIndianDay('2026-12-31').getTime() + 1))).toBe('2027-01-01');
  });
});

describe('grantPlan', () => {
  it('grants until the end of the chosen day', () => {
    expect(patchOf(grantPlan(premium, '2027-03-31', NOW))).toEqual({
      subscribed: true,
      plan: 'Premium',
      subscribedAt: NOW.toISOString(),
      expiresAt: '2027-03-31T18:29:59.999Z',
    });
  });

  it('defaults to the plan duration from now', () => {
    expect(patchOf(grantPlan(premium, undefined, NOW))['expiresAt']).toBe(new Date(NOW.getTime() + premium.durationDays * DAY).toISOString());
  });

  it('accepts today (the plan runs until tonight) and refuses yesterday', () => {
    expect(patchOf(grantPlan(premium, '2026-11-22', NOW))['expiresAt']).toBe('2026-11-22T18:29:59.999Z');
    expect(reasonOf(grantPlan(premium, '2026-11-21', NOW))).toMatchObject({ status: 400, code: 'expiry_in_past', field: 'expiresOn' });
  });

  it('refuses an expiry more than ten years away', () => {
    expect(reasonOf(grantPlan(premium, '2040-01-01', NOW))).toMatchObject({ status: 400, code: 'expiry_too_far', field: 'expiresOn' });
  });
});

describe('extendPlan', () => {
  const current = { uid: 'u', subscribed: true, plan: 'Premium', expiresAt: '2027-01-10T00:00:00.000Z' };

  it('adds days to the current expiry when it is in the future', () => {
    expect(patchOf(extendPlan(current, { days: 30 }, NOW))).toEqual({ expiresAt: '2027-02-09T00:00:00.000Z' });
  });

  it('adds days from now when the plan has lapsed', () => {
    const lapsed = { ...current, expiresAt: '2026-10-01T00:00:00.000Z' };
    expect(patchOf(extendPlan(lapsed, { days: 10 }, NOW))).toEqual({ expiresAt: new Date(NOW.getTime() + 10 * DAY).toISOString() });
  });

  it('extends to the end of a later date', () => {
    expect(patchOf(extendPlan(current, { until: '2027-06-30' }, NOW))).toEqual({ expiresAt: '2027-06-30T18:29:59.999Z' });
  });

  it('refuses a date that is not later than the current expiry', () => {
    expect(reasonOf(extendPlan(current, { until: '2027-01-09' }, NOW))).toMatchObject({ status: 400, code: 'not_later', field: 'until' });
  });

  it('refuses zero, negative and fractional days, and more than the limit', () => {
    for (const days of [0, -5, 1.5]) expect(reasonOf(extendPlan(current, { days }, NOW))).toMatchObject({ status: 400, field: 'days' });
    expect(reasonOf(extendPlan(current, { days: MAX_PLAN_DAYS + 100 }, NOW))).toMatchObject({ code: 'expiry_too_far', field: 'days' });
  });

  it('has nothing to extend without a plan or without an expiry', () => {
    expect(reasonOf(extendPlan({ uid: 'u', subscribed: false, plan: null }, { days: 5 }, NOW))).toMatchObject({ status: 409, code: 'no_plan' });
    expect(reasonOf(extendPlan({ uid: 'u', subscribed: true, plan: 'Premium', expiresAt: null }, { days: 5 }, NOW))).toMatchObject({ status: 409, code: 'no_expiry' });
  });
});

describe('revokePlan', () => {
  it('ends the plan now and keeps its name as lastPlan', () => {
    expect(patchOf(revokePlan({ uid: 'u', subscribed: true, plan: 'Basic', expiresAt: '2027-01-01T00:00:00.000Z' }, NOW))).toEqual({
      subscribed: false,
      plan: null,
      lastPlan: 'Basic',
      expiresAt: NOW.toISOString(),
    });
  });

  it('refuses when there is no plan', () => {
    expect(reasonOf(revokePlan({ uid: 'u', subscribed: false }, NOW))).toMatchObject({ status: 409, code: 'no_plan' });
  });
});

describe('setRole', () => {
  it('sets any role on another user', () => {
    expect(patchOf(setRole({ uid: 'other', role: 'admin' }, 'user', 'me'))).toEqual({ role: 'user' });
    expect(patchOf(setRole({ uid: 'other', role: 'user' }, 'editor', 'me'))).toEqual({ role: 'editor' });
    expect(patchOf(setRole({ uid: 'other', role: 'editor' }, 'user', 'me'))).toEqual({ role: 'user' });
    expect(patchOf(setRole({ uid: 'other', role: 'user' }, 'admin', 'me'))).toEqual({ role: 'admin' });
  });

  it('never takes the actor’s own admin role away', () => {
    expect(reasonOf(setRole({ uid: 'me', role: 'admin' }, 'user', 'me'))).toMatchObject({ status: 400, code: 'own_admin_role', field: 'role' });
    expect(reasonOf(setRole({ uid: 'me', role: 'admin' }, 'editor', 'me'))).toMatchObject({ status: 400, code: 'own_admin_role', field: 'role' });
    expect(patchOf(setRole({ uid: 'me', role: 'admin' }, 'admin', 'me'))).toEqual({ role: 'admin' });
  });
});

describe('audit diff', () => {
  it('lists changed, added and removed fields by name; null and missing are the same', () => {
    expect(
      diffFields(
        { uid: 'u', plan: null, subscribed: false, gone: 'x', same: { a: 1 }, nothing: null },
        { uid: 'u', plan: 'Premium', subscribed: true, added: 3, same: { a: 1 } },
      ),
    ).toEqual([
      { field: 'added', before: undefined, after: 3 },
      { field: 'gone', before: 'x', after: undefined },
      { field: 'plan', before: null, after: 'Premium' },
      { field: 'subscribed', before: false, after: true },
    ]);
    expect(diffFields(null, { a: 1 })).toEqual([{ field: 'a', before: undefined, after: 1 }]);
    expect(diffFields({ a: 1 }, { a: 1 })).toEqual([]);
  });

  it('formats values for reading', () => {
    expect([formatValue(null), formatValue(undefined), formatValue('Premium'), formatValue(''), formatValue(true), formatValue(12), formatValue({ a: 1 })]).toEqual([
      '—',
      '—',
      'Premium',
      '""',
      'true',
      '12',
      '{"a":1}',
    ]);
  });

  it('names actions and links user targets', () => {
    expect(actionLabel('user.grant')).toBe('Granted a plan');
    expect(actionLabel('price.import')).toBe('Imported prices (CSV)');
    expect(actionLabel('something.else')).toBe('something.else');
    expect(targetHref('user:demo-free')).toBe('/admin/users/demo-free');
    expect(targetHref('user:a/b')).toBe('/admin/users/a%2Fb');
    expect(targetHref('series:feedstock.crude.brent')).toBe('/admin/prices?series=feedstock.crude.brent');
    expect(targetHref('banner:abc')).toBe('/admin/banners');
    expect(targetHref('prices:import')).toBeNull();
    expect(targetLabel({ before: { email: 'old@x.in' }, after: { email: 'new@x.in' } })).toBe('new@x.in');
    expect(targetLabel({ before: { phone: '+919800000000' }, after: null })).toBe('+919800000000');
    expect(targetLabel({ before: null, after: { series: 'brent' } })).toBeNull();
  });
});

describe('summarizeUsers', () => {
  it('counts accounts by what they may see and current subscriptions by plan', () => {
    const user = (uid: string, record: Record<string, unknown>) => ({ uid, record: { role: 'user', subscribed: false, plan: null, createdAt: '01-01-2026', ...record } });
    const summary = summarizeUsers(
      [
        user('a', { role: 'admin' }),
        user('p', { subscribed: true, plan: 'Premium', expiresAt: '2027-01-01T00:00:00.000Z' }),
        user('b', { subscribed: true, plan: 'Basic', expiresAt: '2027-01-01T00:00:00.000Z' }),
        user('lapsed', { subscribed: true, plan: 'Premium', expiresAt: '2026-01-01T00:00:00.000Z' }),
        user('trial', { createdAt: '22-11-2026' }),
        user('free', {}),
        user('odd', { subscribed: true, plan: 'Gold' }),
      ],
      NOW,
      plans.map((p) => p.id),
    );
    expect(summary.total).toBe(7);
    expect(summary.byEntitlement).toEqual({ admin: 1, full: 3, limited: 1, none: 2 });
    expect(summary.byPlan).toEqual([
      { plan: 'Basic', count: 1 },
      { plan: 'Standard', count: 0 },
      { plan: 'Premium', count: 1 },
      { plan: 'Platinum', count: 0 },
      { plan: 'Gold', count: 1 },
    ]);
    expect(summary.withoutPlan).toBe(4);
  });
});

describe('admin sections and forms', () => {
  it('marks the section a path belongs to', () => {
    expect(currentSection('/admin')?.label).toBe('Dashboard');
    expect(currentSection('/admin/users/demo-free')?.label).toBe('Users and plans');
    expect(currentSection('/admin/audit/')?.label).toBe('Audit log');
    expect(currentSection('/crude')).toBeUndefined();
  });

  it('formats instants in IST and counts pages', () => {
    expect(formatInstant('2026-11-22T04:30:00.000Z')).toBe('22 Nov 2026, 10:00 IST');
    expect(formatInstant(null)).toBe('—');
    expect(formatInstant('soon')).toBe('soon');
    expect([pageCount(0, 50), pageCount(50, 50), pageCount(51, 50)]).toEqual([1, 1, 2]);
  });

  it('sends only the filled text fields of a form', () => {
    expect(formBody([['plan', 'Premium'], ['expiresOn', ''], ['days', ' 30 '], ['file', new Blob()]])).toEqual({ plan: 'Premium', days: '30' });
  });

  it('nests the fields that name a path (a table of offers) and leaves the empty ones out', () => {
    const fields = formBody([['date', '2026-11-16'], ['data.PP.Raffia.low', '1005'], ['data.PP.Raffia.high', ' 1025 '], ['data.PP.Film.low', ''], ['data.HDPE.Blow moulding.value', '1100'], ['data.x.__proto__.low', '1']]);
    const paths: [string, string[]][] = [
      ['data.PP.Raffia.low', ['data', 'PP', 'Raffia', 'low']],
      ['data.PP.Raffia.high', ['data', 'PP', 'Raffia', 'high']],
      ['data.PP.Film.low', ['data', 'PP', 'Film', 'low']],
      ['data.HDPE.Blow moulding.value', ['data', 'HDPE', 'Blow moulding', 'value']],
      ['data.x.__proto__.low', ['data', 'x', '__proto__', 'low']],
    ];
    const body = nestedBody(fields, paths);
    expect(body).toEqual({ date: '2026-11-16', data: { PP: { Raffia: { low: '1005', high: '1025' } }, HDPE: { 'Blow moulding': { value: '1100' } } } });
    expect(({} as Record<string, unknown>)['low']).toBeUndefined();
  });
});
