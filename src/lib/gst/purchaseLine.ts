/**
 * The words of an invoice's one line: the plan, the term it bought and, for an upgrade, the
 * credit given for the unused days of the plan it replaced (pure; the grant's invoice and the
 * tests word it the same way).
 */
import { isoDateOf, toDisplayDate } from '../dates.ts';
import { findPlan } from '../plans.ts';
import { formatPaise } from '../numbers.ts';

export interface PurchaseFactsForLine {
  readonly kind: 'new' | 'renewal' | 'upgrade';
  readonly fromPlan: string | null;
  readonly creditPaise: number;
  readonly startsAt: string;
  readonly endsAt: string;
}

/** The last day of a term that ends at `endsAt` (the instant access stops): the IST day before it when it ends at midnight. */
const lastDayOf = (endsAt: string): string => isoDateOf(new Date(Date.parse(endsAt) - 1));

export function purchaseLineText(planId: string, purchase: PurchaseFactsForLine): string {
  const plan = findPlan(planId)?.name ?? planId;
  const term = `${toDisplayDate(isoDateOf(new Date(purchase.startsAt)))} to ${toDisplayDate(lastDayOf(purchase.endsAt))}`;
  const base = `PolyIndex ${plan} plan: online price information service, ${term}`;
  if (purchase.kind === 'renewal') return `${base} (renewal)`;
  if (purchase.kind === 'upgrade' && purchase.fromPlan) {
    const from = findPlan(purchase.fromPlan)?.name ?? purchase.fromPlan;
    return `${base} (upgrade from ${from}; ${formatPaise(purchase.creditPaise)} credited for its unused days)`;
  }
  return base;
}
