/**
 * What a purchase costs and which term it buys, in paise, from the plan table (pure; the payment
 * service calls it when it creates an order and again when it grants, so the browser never sets
 * an amount):
 *
 * - **new**: no current subscription: the plan's price, its term from now.
 * - **renewal**: the same plan (or a cheaper one) while a term runs: the full price, the new term
 *   starts when the current one ends, so no paid day is lost.
 * - **upgrade**: a dearer plan while a term runs: the new plan starts now for its whole term, and
 *   the unused days of the current plan are credited against its price:
 *
 *     unused days = whole days left before the current end (a day begun counts as used)
 *     credit      = current plan's price × unused days ÷ its term days, rounded down to the paisa
 *     charge      = new plan's price − credit
 *
 *   A credit above the new price (a term renewed far ahead) is not lost: what is left becomes
 *   extra whole days of the new plan (left ÷ its price per day, rounded down), and nothing is
 *   charged. A charge under ₹1 (Razorpay's smallest order) is waived.
 *
 * Every amount is an integer number of paise, computed once from integers (no float, no drift):
 * credit + charge = the new price whenever anything is charged.
 */
import { findPlan, type Plan } from './plans.ts';

const DAY_MS = 86_400_000;
/** Razorpay's smallest order: ₹1. */
export const MIN_CHARGE_PAISE = 100;

/** What the quote needs of the buyer's current record (the user record's fields). */
export interface TermFacts {
  readonly subscribed?: boolean | null | undefined;
  readonly plan?: string | null | undefined;
  /** ISO instant the current term ends. */
  readonly expiresAt?: string | null | undefined;
}

interface QuoteBase {
  readonly plan: Plan;
  /** What the buyer pays, GST included (the invoice's amount). */
  readonly chargePaise: number;
  readonly startsAt: Date;
  readonly endsAt: Date;
}

export type PurchaseQuote =
  | (QuoteBase & { readonly kind: 'new' })
  | (QuoteBase & { readonly kind: 'renewal'; readonly after: Plan | null })
  | (QuoteBase & {
      readonly kind: 'upgrade';
      readonly from: Plan;
      readonly unusedDays: number;
      readonly creditPaise: number;
      /** Whole days added to the term when the credit is worth more than the new price. */
      readonly extraDays: number;
    });

const at = (ms: number): Date => new Date(ms);

/** Whole days left before `expiresAt` at `now`, rounded down; 0 once it has passed. */
export function unusedDays(expiresAt: Date, now: Date): number {
  return Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / DAY_MS));
}

/** The credit for `days` unused days of `plan`: its price pro rata, rounded down to the paisa. */
export function creditFor(plan: Plan, days: number): number {
  if (!Number.isSafeInteger(days) || days < 0) throw new RangeError(`bad day count: ${days}`);
  return Math.floor((plan.pricePaise * days) / plan.durationDays);
}

/** The current term's end when it is still running at `now`, else null. */
function runningUntil(record: TermFacts | null | undefined, now: Date): Date | null {
  if (!record?.subscribed || !record.expiresAt) return null;
  const end = Date.parse(record.expiresAt);
  return Number.isNaN(end) || end <= now.getTime() ? null : at(end);
}

/** The quote for buying `target` at `now` with the record as it stands. */
export function quotePurchase(record: TermFacts | null | undefined, target: Plan, now: Date): PurchaseQuote {
  const term = (from: number, extraDays = 0) => ({ startsAt: at(from), endsAt: at(from + (target.durationDays + extraDays) * DAY_MS) });
  const end = runningUntil(record, now);
  if (!end) return { kind: 'new', plan: target, chargePaise: target.pricePaise, ...term(now.getTime()) };
  const current = findPlan(record?.plan) ?? null;
  // The same plan, a cheaper one, or a plan the table no longer knows: it follows the current term.
  if (!current || target.pricePaise <= current.pricePaise) {
    return { kind: 'renewal', plan: target, after: current, chargePaise: target.pricePaise, ...term(end.getTime()) };
  }
  const days = unusedDays(end, now);
  const creditPaise = creditFor(current, days);
  const left = creditPaise - target.pricePaise;
  const extraDays = left > 0 ? Math.floor((left * target.durationDays) / target.pricePaise) : 0;
  const owed = Math.max(0, target.pricePaise - creditPaise);
  const chargePaise = owed < MIN_CHARGE_PAISE ? 0 : owed;
  return { kind: 'upgrade', plan: target, from: current, unusedDays: days, creditPaise, extraDays, chargePaise, ...term(now.getTime(), extraDays) };
}
