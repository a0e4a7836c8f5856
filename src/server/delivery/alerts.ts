/**
 * Threshold alerts after a price write has committed: each alert on a moved instrument takes
 * one step (src/lib/delivery/alerts.ts) from its stored state to the next, by compare-and-set
 * in the Store, so two writers (or instances) cannot both fire one crossing; a step that fires
 * sends on the alert's channels, each message claimed once in the sent-log.
 */
import { toSlashedDate } from '../../lib/dates.ts';
import { stepAlert } from '../../lib/delivery/alerts.ts';
import { findInstrument } from '../../lib/delivery/instruments.ts';
import { absoluteLink, alertHeadline, priceLine, priceText } from '../../lib/delivery/messages.ts';
import { deliveryRightsOf } from '../../lib/delivery/rights.ts';
import { sameAlertState, type AlertRecord } from '../store/delivery.ts';
import { sendOnce, whatsappFor, type DeliveryDeps, type SendOutcome } from './dispatch.ts';
import { alertMail } from './mailMessages.ts';
import { quoteCache } from './quotes.ts';

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
      const step = stepAlert(alert.kind, alert.value, alert, latest, previous);
      if (sameAlertState(step.state, alert)) continue;
      const now = deps.now();
      if (!(await deps.store.stepAlertState(alert.id, alert, step.state, now))) continue;
      if (step.fires === null || !latest) continue;
      outcomes.push(...(await fire(deps, alert, step.fires, { instrument, latest, previous })));
    }
  }
  return outcomes.filter((o) => o === 'sent').length;
}

async function fire(deps: DeliveryDeps, alert: AlertRecord, crossing: number, quote: Parameters<typeof priceLine>[0]): Promise<SendOutcome[]> {
  const user = await deps.store.findUserBy('uid', alert.uid);
  if (!user || !deliveryRightsOf({ uid: user.uid, record: user }, deps.now()).alerts) return [];
  const headline = alertHeadline(quote.instrument, alert);
  const line = priceLine(quote);
  const ref = `${alert.id}#${crossing}`;
  const outcomes: SendOutcome[] = [];
  if (alert.channels.includes('email') && user.email) {
    const mail = alertMail(deps, user.email, user.uid, alert.id, headline, quote, line);
    outcomes.push(await sendOnce(deps, { uid: user.uid, kind: 'alert', ref, channel: 'email' }, () => deps.sendMail(mail)));
  }
  if (alert.channels.includes('whatsapp')) {
    const settings = await deps.store.getDeliverySettings(user.uid);
    const number = settings?.whatsappNumber;
    if (number) {
      const link = absoluteLink(deps.siteUrl, quote.instrument.path);
      const text = `${headline}.\n${line}\n${link}\nReply STOP to end alerts.`;
      const message = await whatsappFor(deps, user.uid, number, text, 'priceAlert', [headline, `${priceText(quote.instrument.unit, quote.latest.value)} on ${toSlashedDate(quote.latest.date)}`, link]);
      if (message) outcomes.push(await sendOnce(deps, { uid: user.uid, kind: 'alert', ref, channel: 'whatsapp' }, () => deps.whatsapp.send(message)));
    }
  }
  return outcomes;
}
