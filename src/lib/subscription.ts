/**
 * Subscription dates, pure: when a purchase starts and ends, and how many days are left.
 * The renewal rule: a purchase extends from the later of now and the current expiry, so a
 * subscriber who renews early loses no day they already paid for.
 */
import { findPlan, findPlanByRupees, type Plan } from './plans.ts';

const DAY_MS = 86_400_000;

/** What the expiry maths needs to know of a user record. */
export interface SubscriptionFacts {
  readonly subscribed?: boolean | null | undefined;
  readonly expiresAt?: string | null | undefined;
}

const instantOf = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};

/**
 * The instant a new purchase of `durationDays` starts from: `now`, or the current expiry when
 * the record holds a subscription that has not lapsed yet.
 */
export function purchaseStartsAt(record: SubscriptionFacts | null | undefined, now: Date): Date {
  const current = record?.subscribed ? instantOf(record.expiresAt) : null;
  return new Date(current !== null && current > now.getTime() ? current : now.getTime());
}

/** The expiry after buying `durationDays` at `now` (ISO instant). */
export function expiryAfterPurchase(record: SubscriptionFacts | null | undefined, durationDays: number, now: Date): string {
  if (!Number.isInteger(durationDays) || durationDays <= 0) throw new RangeError(`bad duration: ${durationDays}`);
  return new Date(purchaseStartsAt(record, now).getTime() + durationDays * DAY_MS).toISOString();
}

/** The amount a plan costs, in paise, from the plan table; undefined for an unknown plan. */
export const priceOf = (planId: string): number | undefined => findPlan(planId)?.pricePaise;

/**
 * What an order is for, from a request body: `{plan}` names a plan; the legacy `{amount}` (in
 * rupees) names one only when it is exactly that plan's price. A plan wins over an amount:
 * the browser never sets a price.
 */
export function planForRequest(input: { plan?: string | undefined; amount?: number | undefined }): Plan | undefined {
  if (input.plan !== undefined) return findPlan(input.plan);
  if (input.amount !== undefined) return findPlanByRupees(input.amount);
  return undefined;
}

/**
 * Whole days left before `expiresAt` (rounded up: 1.2 days left is "2 days"), 0 once it has
 * passed; null when there is no valid expiry.
 */
export function daysLeft(expiresAt: string | null | undefined, now: Date): number | null {
  const t = instantOf(expiresAt);
  if (t === null) return null;
  return Math.max(0, Math.ceil((t - now.getTime()) / DAY_MS));
}

/**
 * "Renew in 3 days" for the header's renewal invitation, inside the last `windowDays` before
 * expiry (the access policy's RENEWAL_WINDOW_DAYS); null when nothing is due or it has lapsed.
 */
export function renewalText(expiresAt: string | null | undefined, now: Date, windowDays: number): string | null {
  const left = daysLeft(expiresAt, now);
  if (left === null || left <= 0 || left > windowDays) return null;
  return left === 1 ? 'Renew in 1 day' : `Renew in ${left} days`;
}

/** What a purchase needs to know of the buyer's current record. */
export interface PurchaseFacts extends SubscriptionFacts {
  readonly plan?: string | null | undefined;
}

/**
 * The expiry after buying `plan` at `now`: the plan's duration from now, plus the time left on
 * a current subscription converted at the two plans' prices. Renewing the same plan carries
 * every day over; days left on a cheaper plan become fewer days of a dearer one (and the other
 * way round), so no plan can be bought cheaply and converted into a dearer one.
 */
export function expiryAfterPlanPurchase(record: PurchaseFacts | null | undefined, plan: Plan, now: Date): string {
  const start = purchaseStartsAt(record, now).getTime();
  const remainingMs = start - now.getTime();
  // A plan missing from the table (a legacy grant) is valued like the plan being bought.
  const oldPrice = findPlan(record?.plan)?.pricePaise ?? plan.pricePaise;
  const creditMs = Math.floor((remainingMs * oldPrice) / plan.pricePaise);
  return new Date(now.getTime() + creditMs + plan.durationDays * DAY_MS).toISOString();
}
