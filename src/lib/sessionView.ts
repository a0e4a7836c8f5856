/**
 * The visitor's session as the browser sees it (`GET /api/session`), and what the header and the
 * mobile menu show for it: pure, so the plain header script stays a few hundred bytes of DOM
 * code and the rules are table-tested (tests/unit/sessionView.test.ts).
 */
import { startOfIndianDay, timeLeftLabel } from './countdown.ts';

export interface SessionView {
  user: ({ uid: string; displayName: string | null; email: string | null; plan?: string | null; expiresAt?: string | null } & Record<string, unknown>) | null;
  entitlement: 'anonymous' | 'none' | 'limited' | 'full' | 'admin';
  admin?: boolean;
  subscribed?: boolean;
  trial?: { active: boolean; endsOn: string | null } | null;
  renewalDue?: boolean;
  adminPanelUrl?: string | null;
  /** The plan of a team seat the visitor uses now (when it is the plan in use), and whose it is. */
  team?: { plan: string; ownerEmail: string | null } | null;
}

/**
 * How an item shows below the medium breakpoint, where the header is one row of at most 72 px
 * (brand, one state item, sign in/out, the menu button): a shorter text, or only in the
 * slide-in menu (which lists it too).
 */
export interface NarrowForm {
  /** Shown instead of `text` on a phone. */
  readonly narrowText?: string;
  /** Left out of the phone header (the menu has it). */
  readonly wideOnly?: boolean;
}

/** One thing the header shows: a link, a badge, a button or the trial banner. */
export type HeaderItem = NarrowForm &
  (
    | { readonly kind: 'link'; readonly text: string; readonly href: string; readonly testId: string; readonly className: string }
    | { readonly kind: 'badge'; readonly text: string; readonly testId: string; readonly className: string }
    | { readonly kind: 'signOut'; readonly text: string; readonly testId: string; readonly className: string }
    | { readonly kind: 'banner'; readonly text: string; readonly link: { readonly text: string; readonly href: string }; readonly testId: string; readonly className: string }
  );

export const isSignedIn = (view: SessionView): boolean => view.user !== null || view.entitlement !== 'anonymous';

const subscribedText = (view: SessionView): string => `Subscribed${view.user?.plan ? ` · ${view.user.plan}` : ''}`;

function renewItem(view: SessionView, now: Date, testId: string, className: string): HeaderItem | null {
  const expiresAt = view.user?.expiresAt ? new Date(view.user.expiresAt) : null;
  if (!view.renewalDue || !expiresAt) return null;
  return { kind: 'link', text: `Renew: ${timeLeftLabel(expiresAt, now) ?? 'today'} left`, href: '/subscription', testId, className };
}

/**
 * The header's items, in order: Admin Panel / Subscribed / Subscribe Now, Renew, Alerts, Sign
 * in/out, trial banner. On a phone the first one is short ("Admin", "✓ Premium", "Subscribe")
 * and Renew and Alerts are in the menu only.
 */
export function headerItems(view: SessionView, now: Date): HeaderItem[] {
  const items: HeaderItem[] = [];
  if (view.admin) items.push({ kind: 'link', text: 'Admin Panel', narrowText: 'Admin', href: view.adminPanelUrl ?? '/admin', testId: 'admin-panel', className: 'btn btn-primary' });
  // The subscriber's plan badge opens /account (plan, renewal, upgrade, invoices).
  // A colleague on someone's team plan: the plan they use, which /account says whose it is.
  else if (view.team) items.push({ kind: 'link', text: `Team · ${view.team.plan}`, narrowText: `✓ ${view.team.plan}`, href: '/account', testId: 'subscribed', className: 'badge subscribed' });
  else if (view.subscribed) items.push({ kind: 'link', text: subscribedText(view), narrowText: `✓ ${view.user?.plan ?? 'Subscribed'}`, href: '/account', testId: 'subscribed', className: 'badge subscribed' });
  else items.push({ kind: 'link', text: 'Subscribe Now', narrowText: 'Subscribe', href: isSignedIn(view) ? '/subscription' : '/pricing', testId: 'subscribe-now', className: 'btn btn-primary' });
  const renew = renewItem(view, now, 'renew', 'btn btn-ghost renew');
  if (renew) items.push({ ...renew, wideOnly: true });
  if (isSignedIn(view)) items.push({ kind: 'link', text: 'Alerts', href: '/alerts', testId: 'alerts-link', className: 'btn btn-ghost', wideOnly: true });
  items.push(
    isSignedIn(view)
      ? { kind: 'signOut', text: 'Sign out', testId: 'sign-out', className: 'btn btn-ghost' }
      : { kind: 'link', text: 'Sign in', href: '/register', testId: 'sign-in', className: 'btn btn-ghost' },
  );
  // A trial under a team seat is not what opens the screens: no countdown to a plan they have.
  const trialLeft = view.trial?.endsOn && !view.team ? timeLeftLabel(startOfIndianDay(view.trial.endsOn), now) : null;
  if (trialLeft) {
    items.push({
      kind: 'banner',
      text: `Free trial: ${trialLeft} left of full access. `,
      link: { text: 'Choose a plan', href: '/pricing' },
      testId: 'trial-banner',
      className: 'trial-banner',
    });
  }
  return items;
}

/** The mobile menu's account block (issue 16): who is signed in, their plan, renewal, their account, alerts and sign out. */
export function menuItems(view: SessionView, now: Date): HeaderItem[] {
  if (!isSignedIn(view)) return [{ kind: 'link', text: 'Sign in', href: '/register', testId: 'menu-sign-in', className: 'menu-account-link' }];
  const name = view.user?.displayName || view.user?.email || 'Signed in';
  const items: HeaderItem[] = [{ kind: 'badge', text: name, testId: 'menu-user', className: 'menu-user' }];
  if (view.admin) items.push({ kind: 'link', text: 'Admin Panel', href: view.adminPanelUrl ?? '/admin', testId: 'menu-admin-panel', className: 'menu-account-link' });
  else if (view.team) items.push({ kind: 'badge', text: `Team · ${view.team.plan}`, testId: 'menu-subscribed', className: 'badge subscribed' });
  else if (view.subscribed) items.push({ kind: 'badge', text: subscribedText(view), testId: 'menu-subscribed', className: 'badge subscribed' });
  else items.push({ kind: 'link', text: 'Subscribe Now', href: isSignedIn(view) ? '/subscription' : '/pricing', testId: 'menu-subscribe-now', className: 'menu-account-link' });
  const renew = renewItem(view, now, 'menu-renew', 'menu-account-link');
  if (renew) items.push(renew);
  items.push({ kind: 'link', text: 'Your account', href: '/account', testId: 'menu-account', className: 'menu-account-link' });
  items.push({ kind: 'link', text: 'Alerts', href: '/alerts', testId: 'menu-alerts', className: 'menu-account-link' });
  items.push({ kind: 'signOut', text: 'Sign out', testId: 'menu-sign-out', className: 'menu-account-link menu-sign-out' });
  return items;
}
