/**
 * Which plan a delivery right comes with, in words, from the plan table (no plan name is written
 * out anywhere else): the 403 messages of /api/alerts, /alerts and its island. Kept apart from
 * rights.ts so an island can import it without the access policy.
 */
import { plans, type DeliveryRights, type Plan } from '../plans.ts';

export type DeliveryRight = 'dailyUpdate' | 'alerts' | 'priceBot';

const byPrice = plans.toSorted((a, b) => a.pricePaise - b.pricePaise);

/** The cheapest plan with this right: "Premium" (plans are ordered so that each has what the cheaper ones have). */
export const firstPlanWith = (has: (rights: DeliveryRights) => boolean): Plan | undefined => byPrice.find((plan) => has(plan.delivery));

const nameOf = (has: (rights: DeliveryRights) => boolean): string => firstPlanWith(has)?.name ?? 'a higher';

/** "the Basic plan and up" for a right. */
export const planAndUp = (right: DeliveryRight): string => `the ${nameOf((rights) => rights[right])} plan and up`;
/** The plan from which the daily update may carry any price. */
export const everyDailyPricePlan = (): string => nameOf((rights) => rights.dailyChoices === 'all');

/** The clear message of a 403 for each right a plan may lack. */
export const RIGHT_MESSAGES: Readonly<Record<DeliveryRight, string>> = {
  dailyUpdate: `Daily price updates come with ${planAndUp('dailyUpdate')}. Compare plans at /pricing.`,
  alerts: `Price alerts come with ${planAndUp('alerts')}. Compare plans at /pricing.`,
  priceBot: `The WhatsApp price bot comes with ${planAndUp('priceBot')}.`,
};
