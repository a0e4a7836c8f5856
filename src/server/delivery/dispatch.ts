/**
 * Sending delivery messages exactly once: every message is claimed in the Store's sent-log
 * (user, kind, day or crossing, channel) before it is sent, completed after, and released when
 * sending failed so a later run can try again (or dropped when nothing may go any more). A claim
 * carries a token: a sender whose claim lapsed and was taken over cannot complete or release it.
 * WhatsApp goes as an approved template unless the number wrote to us in the last 24 hours (the
 * service window), and never to a number that said STOP or belongs to someone else now.
 */
import type { OutgoingMail } from '../mail/mailer.ts';
import type { ForecastSource } from '../forecasts/source.ts';
import type { DeliveryClaim, DeliveryStore, NewDelivery } from '../store/delivery.ts';
import type { PriceStore } from '../store/prices.ts';
import type { ProducerPriceStore } from '../store/producerPrices.ts';
import type { SessionFacts } from '../../lib/access/policy.ts';
import { seatFactsOf, type SeatReader } from '../auth/seat.ts';
import type { UserRecord, UserStore } from '../store/users.ts';
import type { WhatsAppTemplate } from '../../lib/delivery/whatsappTemplates.ts';
import type { WhatsAppMessage, WhatsAppSender } from './whatsapp.ts';

export type DeliveryStorePart = DeliveryStore &
  Pick<UserStore, 'findUserBy'> &
  SeatReader &
  Pick<PriceStore, 'latestPoints' | 'latestCitySheet' | 'citySheetOn' | 'points' | 'citySheetDates'> &
  Pick<ProducerPriceStore, 'listProducerPrices'>;

/** Everything delivery needs, injected (the server builds it from astro:env in ./index.ts). */
export interface DeliveryDeps {
  readonly store: DeliveryStorePart;
  readonly whatsapp: WhatsAppSender;
  readonly sendMail: (mail: OutgoingMail) => Promise<unknown>;
  /** The public origin for links in messages. */
  readonly siteUrl: string;
  /** Signs unsubscribe links. */
  readonly linkSecret: string;
  readonly now: () => Date;
  /** Hours after its hour a daily update may still go (DELIVERY_WINDOW_HOURS; 3 unless given). */
  readonly windowHours?: number | undefined;
  readonly log?: Pick<Console, 'info' | 'warn' | 'error'> | undefined;
  /** The forecasts the pages read (the weekly digest, the bot's "pp forecast"); without it neither has any. */
  readonly forecasts?: ForecastSource | undefined;
}

/** `skipped`: sent (or being sent) already; `dropped`: given up, nothing may go any more. */
export type SendOutcome = 'sent' | 'skipped' | 'failed' | 'dropped';

/** Claims, sends, completes; a failed send releases the claim (logged, never thrown). */
export async function sendOnce(deps: DeliveryDeps, delivery: NewDelivery, send: () => Promise<unknown>): Promise<SendOutcome> {
  const claim = await deps.store.claimDelivery(delivery, deps.now());
  if (!claim) return 'skipped';
  return sendClaimed(deps, claim, send);
}

/**
 * Sends under a held claim: completes it after, releases it when sending failed (a later run
 * tries again), drops it when `send` is null (nothing may go: no address, STOP, no right).
 */
export async function sendClaimed(deps: DeliveryDeps, claim: DeliveryClaim, send: (() => Promise<unknown>) | null): Promise<SendOutcome> {
  const { kind, ref, uid, channel } = claim.delivery;
  const log = deps.log ?? console;
  if (!send) {
    await deps.store.dropDelivery(claim, deps.now());
    return 'dropped';
  }
  try {
    await send();
  } catch (error) {
    await deps.store.releaseDelivery(claim).catch(() => false);
    log.error(`[delivery] ${kind} ${ref} to ${uid} by ${channel} failed:`, error instanceof Error ? error.message : error);
    return 'failed';
  }
  // False only when the claim lapsed while sending (a send slower than the lease): another sender may send it again.
  if (!(await deps.store.completeDelivery(claim, deps.now()))) log.warn(`[delivery] ${kind} ${ref} to ${uid} by ${channel}: sent after its claim lapsed`);
  return 'sent';
}

export const SERVICE_WINDOW_MS = 24 * 3_600_000;

/** True when free text may go to this number now (it wrote to us within 24 hours). */
export const inServiceWindow = (lastInboundAt: string | null, now: Date): boolean =>
  lastInboundAt !== null && now.getTime() - Date.parse(lastInboundAt) < SERVICE_WINDOW_MS;

/**
 * The WhatsApp message for a user's verified number, or null when nothing may go: the number
 * opted out (STOP), or is no longer theirs. Inside the service window the free text goes,
 * outside it the template.
 */
export async function whatsappFor(
  deps: DeliveryDeps,
  uid: string,
  number: string,
  text: string,
  template: WhatsAppTemplate,
  params: readonly string[],
): Promise<WhatsAppMessage | null> {
  const contact = await deps.store.getWhatsAppContact(number);
  if (!contact || contact.uid !== uid || !contact.optedIn) return null;
  return inServiceWindow(contact.lastInboundAt, deps.now()) ? { kind: 'text', to: number, body: text } : { kind: 'template', to: number, template, params };
}

/**
 * What a scheduled message judges a subscriber by: their record and the team seat it names (read
 * from the store, src/server/auth/seat.ts), so a seat-holder gets the owner's plan's delivery
 * exactly as their signed-in pages do.
 */
export async function subscriberOf(store: SeatReader, user: UserRecord): Promise<SessionFacts> {
  return { uid: user.uid, record: user, seat: await seatFactsOf(store, user.uid, user) };
}
