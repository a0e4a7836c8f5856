/**
 * The daily-update job: every user whose hour (IST) has come today gets one message per channel
 * with each chosen instrument's latest price, its change on the previous price and a link.
 * Exactly once per user, channel and Indian day however often it runs, on however many
 * instances: each message is claimed in the Store's sent-log first (dispatch.ts). What it
 * carries is what the plan allows today (plans change after settings are saved).
 */
import { dailySeriesOf, deliveryRightsOf } from '../../lib/delivery/rights.ts';
import { findInstrument } from '../../lib/delivery/instruments.ts';
import { absoluteLink, noPriceLine, priceLine } from '../../lib/delivery/messages.ts';
import { deliveryDayOf, isDailyUpdateDue } from '../../lib/delivery/schedule.ts';
import { toSlashedDate } from '../../lib/dates.ts';
import { sendOnce, whatsappFor, type DeliveryDeps, type SendOutcome } from './dispatch.ts';
import { dailyUpdateMail } from './mailMessages.ts';
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
    const lines: string[] = [];
    for (const id of ids) {
      const instrument = findInstrument(id);
      if (!instrument) continue;
      const { latest, previous } = await quote(instrument);
      lines.push(latest ? priceLine({ instrument, latest, previous }) : noPriceLine(instrument));
    }
    if (lines.length === 0) continue;
    due++;
    if (settings.email && user.email) {
      const mail = dailyUpdateMail(deps, user.email, user.uid, day, lines);
      outcomes.push(await sendOnce(deps, { uid: user.uid, kind: 'daily', ref: day, channel: 'email' }, () => deps.sendMail(mail)));
    }
    if (settings.whatsapp && settings.whatsappNumber) {
      const link = absoluteLink(deps.siteUrl, '/alerts');
      const text = `PolyIndex prices for ${toSlashedDate(day)}:\n${lines.join('\n')}\nMore: ${link}\nReply STOP to end these updates.`;
      const message = await whatsappFor(deps, user.uid, settings.whatsappNumber, text, 'dailyUpdate', [toSlashedDate(day), lines.join(' · '), link]);
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
