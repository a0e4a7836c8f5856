/** The admin dashboard's counts, pure: users by what they may see and by current plan. */
import { entitlementOf, hasActiveSubscription, type Entitlement, type SessionFacts } from '../access/policy.ts';
import { findPlan } from '../plans.ts';

export type UserFacts = SessionFacts & { readonly record: NonNullable<SessionFacts['record']> };

export interface UserSummary {
  readonly total: number;
  readonly byEntitlement: Readonly<Record<Exclude<Entitlement, 'anonymous'>, number>>;
  /** Current (unexpired) subscriptions by plan name; plans of the table first, in table order. */
  readonly byPlan: readonly { readonly plan: string; readonly count: number }[];
  /** Accounts without a current subscription (trial, lapsed, never subscribed, admins). */
  readonly withoutPlan: number;
}

export function summarizeUsers(users: readonly UserFacts[], now: Date, planOrder: readonly string[]): UserSummary {
  const byEntitlement = { none: 0, limited: 0, full: 0, admin: 0 };
  const byPlan = new Map<string, number>(planOrder.map((p) => [p, 0]));
  let withoutPlan = 0;
  for (const user of users) {
    const entitlement = entitlementOf(user, now);
    if (entitlement !== 'anonymous') byEntitlement[entitlement] += 1;
    if (hasActiveSubscription(user.record, now)) {
      const name = findPlan(user.record.plan)?.id ?? user.record.plan ?? '(no plan name)';
      byPlan.set(name, (byPlan.get(name) ?? 0) + 1);
    } else {
      withoutPlan += 1;
    }
  }
  return { total: users.length, byEntitlement, byPlan: [...byPlan].map(([plan, count]) => ({ plan, count })), withoutPlan };
}
