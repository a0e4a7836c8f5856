/**
 * What an administrator's plan and role changes do to a user record, pure: grant a plan with
 * an expiry, extend it (by days or to a date), revoke it, set the role. Each answers the patch
 * to merge, or why the change is refused (status, code, message and the field at fault). The
 * store applies the patch inside the transaction that read the record, so two changes of one
 * record never work from the same stale copy.
 */
import { startOfIndianDay } from '../countdown.ts';
import { addDays, type IsoDate } from '../dates.ts';
import type { Plan } from '../plans.ts';
import { expiryAfterPurchase } from '../subscription.ts';

const DAY_MS = 86_400_000;

/** No change may set an expiry further away than this (ten years): a typo guard. */
export const MAX_PLAN_DAYS = 3650;

/** `editor`: the newsroom (posts and banners), granted and removed by an admin here. */
export const ROLES = ['admin', 'editor', 'user'] as const;
export type AdminRole = (typeof ROLES)[number];

/** What the plan maths needs of a user record. */
export interface PlanFacts {
  readonly uid: string;
  readonly role?: string | null | undefined;
  readonly subscribed?: boolean | null | undefined;
  readonly plan?: string | null | undefined;
  readonly expiresAt?: string | null | undefined;
}

export interface Refusal {
  readonly status: 400 | 409;
  readonly code: string;
  readonly message: string;
  readonly field?: string | undefined;
}

export type Change = { readonly ok: true; readonly patch: Readonly<Record<string, unknown>> } | { readonly ok: false; readonly reason: Refusal };

const refuse = (status: 400 | 409, code: string, message: string, field?: string): Change => ({ ok: false, reason: { status, code, message, field } });
const patch = (p: Record<string, unknown>): Change => ({ ok: true, patch: p });

/**
 * The last instant of an Indian calendar day: a plan "valid until 5 Dec 2026" ends when 5 Dec
 * ends in India (23:59:59.999 IST), so the expiry shows as that date everywhere.
 */
export function endOfIndianDay(date: IsoDate): Date {
  return new Date(startOfIndianDay(addDays(date, 1)).getTime() - 1);
}

const instantOf = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};

const tooFar = (t: number, now: Date): boolean => t > now.getTime() + MAX_PLAN_DAYS * DAY_MS;

/**
 * Grants `plan` from now: until the end of `expiresOn` (an Indian calendar day), or for the
 * plan's duration from now when no date is given. An expiry already past is refused.
 */
export function grantPlan(plan: Plan, expiresOn: IsoDate | undefined, now: Date): Change {
  const expires = expiresOn ? endOfIndianDay(expiresOn).getTime() : now.getTime() + plan.durationDays * DAY_MS;
  if (expires <= now.getTime()) return refuse(400, 'expiry_in_past', 'The expiry date has already passed; pick today or a later date.', 'expiresOn');
  if (tooFar(expires, now)) return refuse(400, 'expiry_too_far', `The expiry may be at most ${MAX_PLAN_DAYS} days away.`, 'expiresOn');
  return patch({ subscribed: true, plan: plan.id, subscribedAt: now.toISOString(), expiresAt: new Date(expires).toISOString() });
}

export type Extension = { readonly days: number } | { readonly until: IsoDate };

/**
 * Extends a current plan: by whole days from the later of now and the current expiry (the
 * renewal rule of a purchase), or to the end of a date later than both. A record without a
 * plan, or with a plan that never expires, has nothing to extend.
 */
export function extendPlan(record: PlanFacts, extension: Extension, now: Date): Change {
  if (!record.subscribed || !record.plan) return refuse(409, 'no_plan', 'This user has no plan to extend; grant one instead.');
  const current = instantOf(record.expiresAt);
  if (current === null) return refuse(409, 'no_expiry', 'This plan has no expiry date; grant the plan with an expiry instead.');
  let expires: number;
  if ('days' in extension) {
    if (!Number.isInteger(extension.days) || extension.days < 1) return refuse(400, 'bad_days', 'Days must be a whole number of at least 1.', 'days');
    expires = Date.parse(expiryAfterPurchase(record, extension.days, now));
  } else {
    expires = endOfIndianDay(extension.until).getTime();
    if (expires <= Math.max(current, now.getTime())) {
      return refuse(400, 'not_later', 'The new expiry must be later than the current expiry and today.', 'until');
    }
  }
  if (tooFar(expires, now)) return refuse(400, 'expiry_too_far', `The expiry may be at most ${MAX_PLAN_DAYS} days away.`, 'days' in extension ? 'days' : 'until');
  return patch({ expiresAt: new Date(expires).toISOString() });
}

/** Ends a plan now: unsubscribed, the plan kept as `lastPlan`, `expiresAt` now. */
export function revokePlan(record: PlanFacts, now: Date): Change {
  if (!record.subscribed) return refuse(409, 'no_plan', 'This user has no plan to revoke.');
  return patch({ subscribed: false, plan: null, lastPlan: record.plan ?? null, expiresAt: now.toISOString() });
}

/** Sets the role; an administrator cannot take their own admin role away (nobody could give it back). */
export function setRole(record: PlanFacts, role: AdminRole, actorUid: string): Change {
  if (record.uid === actorUid && role !== 'admin') {
    return refuse(400, 'own_admin_role', 'You cannot remove your own admin role; ask another administrator.', 'role');
  }
  return patch({ role });
}
