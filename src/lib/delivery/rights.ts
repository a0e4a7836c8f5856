/**
 * What price delivery a visitor may use, from the plan table (src/lib/plans.ts): administrators
 * everything, a current subscription its plan's rights (an unknown plan name everything, as
 * the access policy's rule), a trial what Premium has (DESIGN §1), anyone else nothing.
 */
import { entitlementOf, hasActiveSubscription, type SessionFacts } from '../access/policy.ts';
import { findPlan, FULL_DELIVERY, type DeliveryRights } from '../plans.ts';

export type { DeliveryRights };

export const NO_DELIVERY: DeliveryRights = { dailyUpdate: false, alerts: false, priceBot: false, dailyDefaults: [] };

export function deliveryRightsOf(session: SessionFacts | null, now: Date): DeliveryRights {
  const entitlement = entitlementOf(session, now);
  if (entitlement === 'anonymous' || entitlement === 'none') return NO_DELIVERY;
  if (entitlement === 'admin') return FULL_DELIVERY;
  if (hasActiveSubscription(session?.record ?? null, now)) return findPlan(session?.record?.plan)?.delivery ?? FULL_DELIVERY;
  // A trial sees what a Premium subscriber sees.
  return FULL_DELIVERY;
}

/** The clear message of a 403 for each right a plan may lack. */
export const RIGHT_MESSAGES = {
  dailyUpdate: 'Daily price updates come with the Basic plan and up. Subscribe at /subscription.',
  alerts: 'Price alerts come with the Premium plan and up. Upgrade at /subscription.',
  priceBot: 'The WhatsApp price bot comes with the Premium plan and up.',
} as const satisfies Record<Exclude<keyof DeliveryRights, 'dailyDefaults'>, string>;
