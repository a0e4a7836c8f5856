/**
 * The daily-update job: every user whose hour (IST) has come today gets one message per channel
 * with each chosen instrument's latest price, its change on the previous price and a link to
 * its screen (when the plan opens it; always one to /alerts to change what comes).
 * Exactly once per user, channel and Indian day however often it runs, on however many
 * instances: each message is claimed in the Store's sent-log first (dispatch.ts). What it
 * carries is what the plan allows today (plans change after settings are saved).
 */
import { dailySeriesOf, deliveryRightsOf, screenOf } from '../../lib/delivery/rights.ts';
import { findInstrument } from '../../lib/delivery/instruments.ts';
import { absoluteLink, dailyUpdateWhatsApp, noPriceLine, priceLine } from '../../lib/delivery/messages.ts';
import { deliveryDayOf, isDailyUpdateDue } from '../../lib/delivery/schedule.ts';
import { sendOnce, whatsappFor, type DeliveryDeps, type SendOutcome } from './dispatch.ts';
import { dailyUpdateMail, type DailyPrice } from './mailMessages.ts';
import { quoteCache } from './quotes.ts';

export interface DailyRunReport {
  readonly day: string;
  /** Users whose update was due this run (hour reached, a right to it, a channel on). */
  readonly due: number;
  readonly sent: number;
  /** Messages already sent (or being sent) by an earlier run or another instance. */
  readonly skipped: number;
  readonly failed: number;
}

export async function runDailyUpdate(deps: DeliveryDeps): Promise<DailyRunReport> {
  const now = deps.now();
  const day = deliveryDayOf(now);
  const quote = quoteCache(deps.store);
  const outcomes: SendOutcome[] = [];
  let due = 0;
  for (const settings of await deps.store.listActiveDeliverySettings()) {
    if (!isDailyUpdateDue(settings.hour, now)) continue;
    const user = await deps.store.findUserBy('uid', settings.uid);
    const rights = deliveryRightsOf(user ? { uid: user.uid, record: user } : null, now);
    if (!user || !rights.dailyUpdate) continue;
    const ids = dailySeriesOf(rights, settings.series);
    const prices: DailyPrice[] = [];
    for (const id of ids) {
      const instrument = findInstrument(id);
      if (!instrument) continue;
      const { latest, previous } = await quote(instrument);
      const screen = screenOf(instrument, { uid: user.uid, record: user }, now);
      prices.push({ label: instrument.label, line: latest ? priceLine({ instrument, latest, previous }) : noPriceLine(instrument), screen: screen && absoluteLink(deps.siteUrl, screen) });
    }
    if (prices.length === 0) continue;
    due++;
    if (settings.email && user.email) {
      const mail = dailyUpdateMail(deps, user.email, user.uid, day, prices);
      outcomes.push(await sendOnce(deps, { uid: user.uid, kind: 'daily', ref: day, channel: 'email' }, () => deps.sendMail(mail)));
    }
    if (settings.whatsapp && settings.whatsappNumber) {
      const { text, params } = dailyUpdateWhatsApp(day, prices, absoluteLink(deps.siteUrl, '/alerts'));
      const message = await whatsappFor(deps, user.uid, settings.whatsappNumber, text, 'dailyUpdate', params);
      if (message) outcomes.push(await sendOnce(deps, { uid: user.uid, kind: 'daily', ref: day, channel: 'whatsapp' }, () => deps.whatsapp.send(message)));
    }
  }
  const report: DailyRunReport = {
    day,
    due,
    sent: outcomes.filter((o) => o === 'sent').length,
    skipped: outcomes.filter((o) => o === 'skipped').length,
    failed: outcomes.filter((o) => o === 'failed').length,
  };
  (deps.log ?? console).info(`[delivery] daily update ${day}: ${report.due} due, ${report.sent} sent, ${report.skipped} already sent, ${report.failed} failed`);
  return report;
}
