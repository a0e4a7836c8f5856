/**
 * What /account shows of a subscription, pure: the plan and its term, and what the buyer may buy
 * next, each priced by the proration quote (src/lib/proration.ts) exactly as the server will
 * charge it: renewing the plan (a year from the current end) and upgrading to each dearer plan
 * (now, less the unused days' credit). Without a running plan every plan is a new purchase.
 */
import { hasActiveSubscription, type SessionFacts } from './access/policy.ts';
import { isoDateOf, toDisplayDate } from './dates.ts';
import { findPlan, plans, type Plan } from './plans.ts';
import { formatPaise } from './numbers.ts';
import { quotePurchase, type PurchaseQuote } from './proration.ts';
import { isInTrial, trialEndsOn } from './trial.ts';

export type PlanStatus = 'active' | 'trial' | 'ended' | 'none';

/** A purchase the buyer can make now, with the words of its button and what it buys. */
export interface PurchaseOffer {
  readonly plan: Plan;
  readonly quote: PurchaseQuote;
  readonly label: string;
  readonly detail: string;
}

export interface AccountPlan {
  readonly status: PlanStatus;
  readonly plan: Plan | null;
  /** The plan's name as the record has it (a plan the table no longer knows keeps its name). */
  readonly planName: string | null;
  /** The current term's first day (the last purchase that started it) and last day, for display. */
  readonly startsOn: string | null;
  readonly endsOn: string | null;
  readonly offers: readonly PurchaseOffer[];
}

type AccountRecord = NonNullable<SessionFacts['record']> & { readonly subscribedAt?: string | null | undefined };

/** The day a term ending at `instant` (when access stops) last gives access, in India. */
const lastDayOf = (instant: string): string => toDisplayDate(isoDateOf(new Date(Date.parse(instant) - 1)));
const dayOf = (instant: string): string => toDisplayDate(isoDateOf(new Date(instant)));

function offerFor(record: AccountRecord | null, plan: Plan, now: Date): PurchaseOffer {
  const quote = quotePurchase(record, plan, now);
  const price = formatPaise(quote.chargePaise);
  const until = lastDayOf(quote.endsAt.toISOString());
  switch (quote.kind) {
    case 'renewal':
      return { plan, quote, label: `Renew ${plan.name} for ${price}`, detail: `Adds a year after your current term: runs until ${until}.` };
    case 'upgrade':
      return {
        plan,
        quote,
        label: quote.chargePaise > 0 ? `Upgrade to ${plan.name} for ${price}` : `Upgrade to ${plan.name}`,
        detail: `${formatPaise(plan.pricePaise)} less ${formatPaise(quote.creditPaise)} for the ${quote.unusedDays} unused days of ${quote.from.name}; ${plan.name} starts now and runs until ${until}.`,
      };
    default:
      return { plan, quote, label: `Pay ${price} for ${plan.name}`, detail: `Starts now and runs until ${until}.` };
  }
}

/**
 * The account's plan at `now`. `termStartedAt`: when the current term began (the latest
 * invoice's term start that is not after now), else the record's last purchase.
 */
export function accountPlan(record: AccountRecord | null, now: Date, termStartedAt: string | null = null): AccountPlan {
  const active = hasActiveSubscription(record, now);
  const plan = findPlan(record?.plan) ?? null;
  const planName = record?.subscribed ? (plan?.name ?? record.plan ?? null) : null;
  if (active) {
    // Renew the plan itself; upgrade to any dearer one. A cheaper plan waits for the term's end.
    const offers = plan ? plans.filter((p) => p.id === plan.id || p.pricePaise > plan.pricePaise).map((p) => offerFor(record, p, now)) : [];
    const started = termStartedAt ?? record?.subscribedAt ?? null;
    return { status: 'active', plan, planName, startsOn: started ? dayOf(started) : null, endsOn: record?.expiresAt ? lastDayOf(record.expiresAt) : null, offers };
  }
  const today = isoDateOf(now);
  const trial = record !== null && isInTrial({ ...record, subscribed: false }, today) === true;
  const offers = plans.map((p) => offerFor(record, p, now));
  if (trial) {
    const ends = trialEndsOn(record);
    return { status: 'trial', plan: null, planName: null, startsOn: null, endsOn: ends ? toDisplayDate(ends) : null, offers };
  }
  if (record?.subscribed) {
    return { status: 'ended', plan, planName, startsOn: null, endsOn: record.expiresAt ? lastDayOf(record.expiresAt) : null, offers };
  }
  return { status: 'none', plan: null, planName: null, startsOn: null, endsOn: null, offers };
}
