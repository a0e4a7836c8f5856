import { describe, expect, it } from 'vitest';
import { headerItems, menuItems, type SessionView } from '../../src/lib/sessionView.ts';

// 10:00 IST on 22 Nov 2026.
const NOW = new Date('2026-11-22T04:30:00Z');
const user = (fields: Partial<NonNullable<SessionView['user']>> = {}) => ({ uid: 'u1', displayName: 'Asha Rao', email: 'asha@example.test', ...fields });
const views: Record<string, SessionView> = {
  anonymous: { user: null, entitlement: 'anonymous' },
  free: { user: user(), entitlement: 'none', subscribed: false },
  trial: { user: user(), entitlement: 'full', subscribed: false, trial: { active: true, endsOn: '2026-11-24' } },
  premium: { user: user({ plan: 'Premium' }), entitlement: 'full', subscribed: true },
  renewing: { user: user({ plan: 'Premium', expiresAt: '2026-11-30T04:30:00Z' }), entitlement: 'full', subscribed: true, renewalDue: true },
  admin: { user: user({ displayName: null }), entitlement: 'admin', admin: true, adminPanelUrl: '/admin' },
  noName: { user: user({ displayName: null, email: null, plan: 'Basic' }), entitlement: 'limited', subscribed: true },
  /** A colleague on a Platinum team, in their own trial (the seat, not the trial, opens the screens). */
  seated: { user: user(), entitlement: 'full', subscribed: false, trial: { active: true, endsOn: '2026-11-24' }, team: { plan: 'Platinum', ownerEmail: 'owner@firm.test' } },
  /** A Basic subscriber on a Platinum team. */
  basicSeated: { user: user({ plan: 'Basic' }), entitlement: 'full', subscribed: true, team: { plan: 'Platinum', ownerEmail: 'owner@firm.test' } },
};

const summary = (items: ReturnType<typeof headerItems>) => items.map((i) => `${i.testId}:${i.text}${i.kind === 'link' ? `→${i.href}` : ''}`);
/** What the phone header shows: the short forms, without what only the menu lists. */
const onPhone = (items: ReturnType<typeof headerItems>) => items.filter((i) => !i.wideOnly && i.kind !== 'banner').map((i) => i.narrowText ?? i.text);

describe('header items', () => {
  it.each([
    ['anonymous', ['subscribe-now:Subscribe Now→/pricing', 'sign-in:Sign in→/register']],
    ['free', ['subscribe-now:Subscribe Now→/subscription', 'alerts-link:Alerts→/alerts', 'sign-out:Sign out']],
    ['trial', ['subscribe-now:Subscribe Now→/subscription', 'alerts-link:Alerts→/alerts', 'sign-out:Sign out', 'trial-banner:Free trial: 1 day 14 h left of full access. ']],
    ['premium', ['subscribed:Subscribed · Premium→/account', 'alerts-link:Alerts→/alerts', 'sign-out:Sign out']],
    ['renewing', ['subscribed:Subscribed · Premium→/account', 'renew:Renew: 8 days left→/subscription', 'alerts-link:Alerts→/alerts', 'sign-out:Sign out']],
    ['admin', ['admin-panel:Admin Panel→/admin', 'alerts-link:Alerts→/alerts', 'sign-out:Sign out']],
    ['seated', ['subscribed:Team · Platinum→/account', 'alerts-link:Alerts→/alerts', 'sign-out:Sign out']],
    ['basicSeated', ['subscribed:Team · Platinum→/account', 'alerts-link:Alerts→/alerts', 'sign-out:Sign out']],
  ])('%s', (who, expected) => expect(summary(headerItems(views[who]!, NOW))).toEqual(expected));

  it.each([
    ['anonymous', ['Subscribe', 'Sign in']],
    ['free', ['Subscribe', 'Sign out']],
    ['trial', ['Subscribe', 'Sign out']],
    ['premium', ['✓ Premium', 'Sign out']],
    ['renewing', ['✓ Premium', 'Sign out']],
    ['admin', ['Admin', 'Sign out']],
    ['noName', ['✓ Basic', 'Sign out']],
  ])('on a phone, %s gets one short state item and sign in/out (the rest is in the menu)', (who, expected) => expect(onPhone(headerItems(views[who]!, NOW))).toEqual(expected));

  it('drops the trial banner once the trial is over', () => {
    expect(summary(headerItems(views['trial']!, new Date('2026-11-24T00:00:00Z')))).not.toContain(expect.stringMatching(/^trial-banner/));
  });
});

describe('mobile menu account block', () => {
  it.each([
    ['anonymous', ['menu-sign-in:Sign in→/register']],
    ['free', ['menu-user:Asha Rao', 'menu-subscribe-now:Subscribe Now→/subscription', 'menu-account:Your account→/account', 'menu-alerts:Alerts→/alerts', 'menu-sign-out:Sign out']],
    ['premium', ['menu-user:Asha Rao', 'menu-subscribed:Subscribed · Premium', 'menu-account:Your account→/account', 'menu-alerts:Alerts→/alerts', 'menu-sign-out:Sign out']],
    ['renewing', ['menu-user:Asha Rao', 'menu-subscribed:Subscribed · Premium', 'menu-renew:Renew: 8 days left→/subscription', 'menu-account:Your account→/account', 'menu-alerts:Alerts→/alerts', 'menu-sign-out:Sign out']],
    ['admin', ['menu-user:asha@example.test', 'menu-admin-panel:Admin Panel→/admin', 'menu-account:Your account→/account', 'menu-alerts:Alerts→/alerts', 'menu-sign-out:Sign out']],
    ['noName', ['menu-user:Signed in', 'menu-subscribed:Subscribed · Basic', 'menu-account:Your account→/account', 'menu-alerts:Alerts→/alerts', 'menu-sign-out:Sign out']],
    ['seated', ['menu-user:Asha Rao', 'menu-subscribed:Team · Platinum', 'menu-account:Your account→/account', 'menu-alerts:Alerts→/alerts', 'menu-sign-out:Sign out']],
  ])('%s', (who, expected) => expect(summary(menuItems(views[who]!, NOW))).toEqual(expected));
});
