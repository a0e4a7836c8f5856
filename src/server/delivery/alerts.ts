/**
 * Threshold alerts after a price write has committed: each alert on a moved instrument takes
 * one step (src/lib/delivery/alerts.ts) from its stored state to the next, by compare-and-set
 * in the Store, so two writers (or instances) cannot both fire one crossing. A step that fires
 * records its messages (one per channel, `pending` in the sent-log, with the prices it fired on)
 * in the same transaction, then sends them, each claimed once. A message that could not go (a
 * failed send, a crash after the step) is sent by the hourly job's retry, for ALERT_RETRY_MS
 * after its crossing; then it is given up (docs/delivery.md, "Alerts").
 */
import { z } from 'astro/zod';
import { stepAlert, type Quote } from '../../lib/delivery/alerts.ts';
import { findInstrument } from '../../lib/delivery/instruments.ts';
import { languageOf } from '../../lib/delivery/language.ts';
import { absoluteLink, alertEvent, alertHeadline, alertText, priceLine, priceNow, type PriceQuote } from '../../lib/delivery/messages.ts';
import { priceAlertTemplate } from '../../lib/delivery/whatsappTemplates.ts';
import { deliveryRightsOf } from '../../lib/delivery/rights.ts';
import { sameAlertState, type AlertRecord, type DeliveryClaim, type NewDelivery, type PendingDelivery } from '../store/delivery.ts';
import { sendClaimed, subscriberOf, whatsappFor, type DeliveryDeps, type SendOutcome } from './dispatch.ts';
import { alertMail } from './mailMessages.ts';
import { quoteCache } from './quotes.ts';
import { recordRevisionFirings, revisionSender } from './revisionAlerts.ts';

/** How long after its crossing an alert message is still tried (the hourly job tries about this many times). */
export const ALERT_RETRY_MS = 24 * 3_600_000;

/** Evaluates every alert on these instruments; returns the messages sent. */
export async function evaluateAlerts(deps: DeliveryDeps, instrumentIds: readonly string[]): Promise<number> {
  const quote = quoteCache(deps.store);
  const outcomes: SendOutcome[] = [];
  for (const id of new Set(instrumentIds)) {
    const instrument = findInstrument(id);
    if (!instrument) continue;
    const alerts = await deps.store.listAlertsByInstrument(id);
    if (alerts.length === 0) continue;
    const { latest, previous } = await quote(instrument);
    for (const alert of alerts) {
      if (alert.kind === 'revision') continue;
      const step = stepAlert(alert.kind, alert.value, alert, latest, previous);
      if (sameAlertState(step.state, alert)) continue;
      const deliveries = step.fires !== null && latest ? alertDeliveries(alert, step.fires, latest, previous) : [];
      if (!(await deps.store.stepAlertState(alert.id, alert, step.state, deps.now(), deliveries))) continue;
      for (const delivery of deliveries) outcomes.push(await deliverAlert(deps, delivery));
    }
  }
  return outcomes.filter((o) => o === 'sent').length;
}

/**
 * Revision alerts after a producer-price write (or the hourly job): the firings due now are
 * recorded once (./revisionAlerts.ts), then sent; returns the messages sent.
 */
export async function evaluateRevisionAlerts(deps: DeliveryDeps): Promise<number> {
  const outcomes: SendOutcome[] = [];
  for (const delivery of await recordRevisionFirings(deps)) outcomes.push(await deliverAlert(deps, delivery));
  return outcomes.filter((o) => o === 'sent').length;
}

/** The messages of one crossing: one per channel, with the prices it fired on. */
const alertDeliveries = (alert: AlertRecord, crossing: number, latest: Quote, previous: Quote | null): PendingDelivery[] =>
  alert.channels.map((channel) => ({ uid: alert.uid, kind: 'alert', ref: `${alert.id}#${crossing}`, channel, payload: JSON.stringify({ latest, previous }) }));

const QuotePayload = z.object({
  latest: z.object({ date: z.string(), value: z.number() }),
  previous: z.object({ date: z.string(), value: z.number() }).nullable(),
});

/** The prices a recorded alert message fired on, or null for a payload that is not them. */
function pricesOf(payload: string | null): z.infer<typeof QuotePayload> | null {
  try {
    const parsed = QuotePayload.safeParse(JSON.parse(payload ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Sends one recorded alert message, once (claimed first); gives it up when nothing may go any more. */
export async function deliverAlert(deps: DeliveryDeps, delivery: NewDelivery): Promise<SendOutcome> {
  const claim = await deps.store.claimDelivery(delivery, deps.now());
  if (!claim) return 'skipped';
  return sendClaimed(deps, claim, await alertSender(deps, claim));
}

/** How to send a claimed alert message now, or null when it must not go: the alert was deleted, the plan lost alerts, no address, STOP. */
async function alertSender(deps: DeliveryDeps, claim: DeliveryClaim): Promise<(() => Promise<unknown>) | null> {
  const { uid, ref, channel } = claim.delivery;
  const alertId = ref.slice(0, ref.lastIndexOf('#'));
  const alert = (await deps.store.listAlertsByUid(uid)).find((a) => a.id === alertId);
  if (!alert) return null;
  const user = await deps.store.findUserBy('uid', uid);
  if (!user || !deliveryRightsOf(await subscriberOf(deps.store, user), deps.now()).alerts) return null;
  const settings = await deps.store.getDeliverySettings(uid);
  const language = languageOf(settings?.language);
  if (alert.kind === 'revision') return revisionSender(deps, { alert, user, channel, payload: claim.payload, language, whatsappNumber: settings?.whatsappNumber ?? null });
  const instrument = findInstrument(alert.instrument);
  const prices = pricesOf(claim.payload);
  if (!instrument || !prices) return null;
  const quote: PriceQuote = { instrument, latest: prices.latest, previous: prices.previous };
  const facts = { kind: alert.kind, value: alert.value };
  const headline = alertHeadline(instrument, facts, language);
  const line = priceLine(quote, language);
  if (channel === 'email') {
    if (!user.email) return null;
    const mail = alertMail(deps, user.email, user.uid, alert.id, headline, quote, line, language);
    return () => deps.sendMail(mail);
  }
  if (channel === 'whatsapp') {
    const number = settings?.whatsappNumber;
    if (!number) return null;
    const link = absoluteLink(deps.siteUrl, instrument.path);
    const message = await whatsappFor(deps, uid, number, alertText(headline, line, link, language), priceAlertTemplate(language), [alertEvent(instrument, facts, language), priceNow(quote, language), link]);
    return message ? () => deps.whatsapp.send(message) : null;
  }
  return null;
}

export interface AlertRetryReport {
  readonly sent: number;
  readonly failed: number;
  /** Given up: past ALERT_RETRY_MS, or nothing may go any more. */
  readonly dropped: number;
}

/**
 * The hourly job's retry of alert messages not sent yet (a failed send, a sender that died after
 * the step): each is tried again until ALERT_RETRY_MS after its crossing, then given up.
 */
export async function retryAlerts(deps: DeliveryDeps): Promise<AlertRetryReport> {
  const outcomes: SendOutcome[] = [];
  for (const record of await deps.store.listUnsentDeliveries('alert')) {
    const delivery: NewDelivery = { uid: record.uid, kind: record.kind, ref: record.ref, channel: record.channel };
    if (deps.now().getTime() - Date.parse(record.createdAt) > ALERT_RETRY_MS) {
      const claim = await deps.store.claimDelivery(delivery, deps.now());
      if (claim) outcomes.push(await sendClaimed(deps, claim, null));
      continue;
    }
    outcomes.push(await deliverAlert(deps, delivery));
  }
  const count = (outcome: SendOutcome) => outcomes.filter((o) => o === outcome).length;
  return { sent: count('sent'), failed: count('failed'), dropped: count('dropped') };
}
