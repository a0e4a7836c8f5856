/**
 * What price delivery a visitor may use, from the plan table (src/lib/plans.ts): administrators
 * everything, a current subscription its plan's rights (an unknown plan name everything, as
 * the access policy's rule), a trial what the trial plan has, anyone else nothing.
 */
import { decide, entitlementOf, planInUse, type SessionFacts } from '../access/policy.ts';
import { findPlan, FULL_DELIVERY, trialPlan, type DeliveryChannel, type DeliveryRights } from '../plans.ts';
import { findInstrument, instruments, type Instrument } from './instruments.ts';

export type { DeliveryRights };
export { RIGHT_MESSAGES } from './planWords.ts';

export const NO_DELIVERY: DeliveryRights = { dailyUpdate: false, channels: [], alerts: false, priceBot: false, dailyDefaults: [], dailyChoices: { instruments: [], citySheets: [] } };

export function deliveryRightsOf(session: SessionFacts | null, now: Date): DeliveryRights {
  const entitlement = entitlementOf(session, now);
  if (entitlement === 'anonymous' || entitlement === 'none') return NO_DELIVERY;
  if (entitlement === 'admin') return FULL_DELIVERY;
  const inUse = planInUse(session, now);
  if (inUse) return findPlan(inUse.plan)?.delivery ?? FULL_DELIVERY;
  // A trial sees what the trial plan (Premium) gives.
  return trialPlan().delivery;
}

/** The channels a daily update goes by: those the subscriber turned on that the plan includes. */
export function dailyChannelsOf(rights: DeliveryRights, settings: { readonly email: boolean; readonly whatsapp: boolean }): DeliveryChannel[] {
  if (!rights.dailyUpdate) return [];
  return rights.channels.filter((channel) => (channel === 'email' ? settings.email : settings.whatsapp));
}

/** Whether the plan's daily update may carry this price (the plan table's `dailyChoices`). */
export function mayChooseDaily(rights: DeliveryRights, instrument: Instrument): boolean {
  if (!rights.dailyUpdate) return false;
  const choices = rights.dailyChoices;
  if (choices === 'all') return true;
  return choices.instruments.includes(instrument.id) || (instrument.source.kind === 'city' && choices.citySheets.includes(instrument.source.city));
}

/** The prices /alerts offers for the daily update, in catalog order. */
export const dailyChoicesOf = (rights: DeliveryRights): Instrument[] => instruments.filter((instrument) => mayChooseDaily(rights, instrument));

/**
 * What a daily update carries: the chosen prices the plan allows now (plans change after a save),
 * in the order chosen; when none is left (or none was chosen), the plan's defaults.
 */
export function dailySeriesOf(rights: DeliveryRights, chosen: readonly string[]): string[] {
  const allowed = chosen.filter((id) => {
    const instrument = findInstrument(id);
    return instrument !== undefined && mayChooseDaily(rights, instrument);
  });
  return allowed.length > 0 ? allowed : [...rights.dailyDefaults];
}

/**
 * The screen that shows a price (site-relative), when this visitor may open it: delivery links
 * each price there. Null when the plan has no price screens (Basic and Standard; a lapsed plan),
 * so no message links a page that only asks its reader to subscribe.
 */
export function screenOf(instrument: Instrument, session: SessionFacts | null, now: Date): string | null {
  const at = instrument.path.indexOf('?');
  const pathname = at < 0 ? instrument.path : instrument.path.slice(0, at);
  const search = at < 0 ? '' : instrument.path.slice(at);
  return decide(pathname, session, now, search).kind === 'allow' ? instrument.path : null;
}
