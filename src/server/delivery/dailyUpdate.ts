/**
 * The daily-update job: every user whose hour (IST) has come today, inside its delivery window
 * (schedule.ts), gets one message per channel with each chosen instrument's latest price and its
 * change, grouped, in their language (lib/delivery/dailyUpdate.ts has the words), with links to
 * the screens their plan opens. A run after the window skips that day's update: it records the
 * skip in the sent-log (`dropped`, so no later run sends it), counts it in its report as
 * `missed`, and /alerts says so. Exactly once per user, channel and Indian day however often it
 * runs, on however many instances: each message is claimed in the Store's sent-log first
 * (dispatch.ts). What it carries is what the plan allows today.
 */
import { groupOf, mailDailyUpdate, whatsappDailyUpdate, type DailyPrice, type DailyRevision } from '../../lib/delivery/dailyUpdate.ts';
import { decide } from '../../lib/access/policy.ts';
import { listPlace, RATE_REVISION_PATH, revisionsOf, revisionsOnly } from '../../lib/producerPrices.ts';
import { DEMO_ENTERED_BY } from '../../lib/producerDemo.ts';
import { findGrade } from '../../lib/catalog.ts';
import { addDays, isoDateOf } from '../../lib/dates.ts';
import { gradeOf } from './producerPrices.ts';
import type { SessionFacts } from '../../lib/access/policy.ts';
import { findInstrument, type Instrument } from '../../lib/delivery/instruments.ts';
import { languageOf } from '../../lib/delivery/language.ts';
import { absoluteLink } from '../../lib/delivery/messages.ts';
import { dailyChannelsOf, dailySeriesOf, deliveryRightsOf, screenOf, type DeliveryRights } from '../../lib/delivery/rights.ts';
import { dailySlotOf, DEFAULT_DELIVERY_WINDOW_HOURS, deliveryDayOf } from '../../lib/delivery/schedule.ts';
import type { Channel, DeliverySettings } from '../store/delivery.ts';
import { sendOnce, subscriberOf, whatsappFor, type DeliveryDeps, type SendOutcome } from './dispatch.ts';
import { dailyUpdateMail } from './mailMessages.ts';
import { quoteCache, type InstrumentQuote } from './quotes.ts';

export interface DailyRunReport {
  readonly day: string;
  /** Users whose update was due this run (inside its window, a right to it, a channel on). */
  readonly due: number;
  readonly sent: number;
  /** Messages already sent (or being sent) by an earlier run or another instance. */
  readonly skipped: number;
  readonly failed: number;
  /** Users whose update's window had closed unsent when this run came: that day's update is skipped. */
  readonly missed: number;
  /** The delivery window of this run, in hours after each update's hour. */
  readonly windowHours: number;
}

/**
 * The channels a user's update goes by: those turned on that the plan includes (the plan
 * table's `channels`), e-mail only to an address, WhatsApp only to a verified number.
 */
const channelsOf = (rights: DeliveryRights, settings: DeliverySettings, email: string | null): Channel[] =>
  dailyChannelsOf(rights, settings).filter((channel) => (channel === 'email' ? email !== null && email !== '' : settings.whatsappNumber !== null));

/** Each chosen price's quote, with its screen's absolute link when the plan opens it (unknown ids are left out). */
export async function dailyPricesOf(quote: (instrument: Instrument) => Promise<InstrumentQuote>, siteUrl: string, session: SessionFacts | null, ids: readonly string[], now: Date): Promise<DailyPrice[]> {
  const prices: DailyPrice[] = [];
  for (const id of ids) {
    const instrument = findInstrument(id);
    if (!instrument) continue;
    const { latest, previous } = await quote(instrument);
    const screen = screenOf(instrument, session, now);
    prices.push({ instrument, latest, previous, screen: screen && absoluteLink(siteUrl, screen) });
  }
  return prices;
}

/** "More": the city-wise sheet (the most prices on one screen), else the first screen the reader may open; plans without price screens: /alerts. */
export const moreLinkOf = (prices: readonly DailyPrice[], settingsLink: string): string =>
  prices.find((p) => p.screen && groupOf(p.instrument) === 'india')?.screen ?? prices.find((p) => p.screen)?.screen ?? settingsLink;

/** How far back an update looks for producer revisions: the ones entered since about the last update, effective within the last week. */
export const REVISIONS_SINCE_MS = 24 * 3_600_000;
export const REVISIONS_EFFECTIVE_DAYS = 7;

/** The polymers (`PP`, `HDPE` …) of a reader's chosen prices: the revisions they follow. */
export const productsOf = (prices: readonly DailyPrice[]): Set<string> =>
  new Set(prices.flatMap((p) => findGrade(gradeOf(p.instrument) ?? '')?.polymer.slug ?? []));

/**
 * The producers' revisions the desk entered in the REVISIONS_SINCE_MS before `now` (not the demo's
 * seeded history), effective within the last REVISIONS_EFFECTIVE_DAYS, on the polymers the reader
 * follows, newest first; none for a reader whose plan does not open the revisions screen.
 */
export async function dailyRevisionsOf(store: DeliveryDeps['store'], siteUrl: string, session: SessionFacts | null, now: Date, products: ReadonlySet<string>): Promise<DailyRevision[]> {
  if (products.size === 0 || decide(RATE_REVISION_PATH, session, now).kind !== 'allow') return [];
  const since = new Date(now.getTime() - REVISIONS_SINCE_MS).toISOString();
  const effectiveSince = addDays(isoDateOf(now), -REVISIONS_EFFECTIVE_DAYS);
  return revisionsOnly(revisionsOf(await store.listProducerPrices()))
    .filter((r) => r.record.enteredBy !== DEMO_ENTERED_BY && r.record.enteredAt > since && r.record.enteredAt <= now.toISOString())
    .filter((r) => r.record.effective >= effectiveSince && products.has(r.line.product))
    .sort((a, b) => (a.record.enteredAt < b.record.enteredAt ? 1 : a.record.enteredAt > b.record.enteredAt ? -1 : 0))
    .map((r) => ({
      producer: r.line.producer,
      grade: r.line.grade,
      place: listPlace(r.line.location),
      latest: { date: r.record.effective, value: r.record.value },
      previous: { date: r.previous!.effective, value: r.previous!.value },
      screen: absoluteLink(siteUrl, RATE_REVISION_PATH),
    }));
}

export async function runDailyUpdate(deps: DeliveryDeps): Promise<DailyRunReport> {
  const now = deps.now();
  const windowHours = deps.windowHours ?? DEFAULT_DELIVERY_WINDOW_HOURS;
  const quote = quoteCache(deps.store);
  const outcomes: SendOutcome[] = [];
  let due = 0;
  let missed = 0;
  for (const settings of await deps.store.listActiveDeliverySettings()) {
    const slot = dailySlotOf(settings.hour, now, windowHours);
    if (slot.state === 'waiting') continue;
    const user = await deps.store.findUserBy('uid', settings.uid);
    const session = user ? await subscriberOf(deps.store, user) : null;
    const rights = deliveryRightsOf(session, now);
    if (!user || !rights.dailyUpdate) continue;
    const channels = channelsOf(rights, settings, user.email);
    if (channels.length === 0) continue;

    if (slot.state === 'missed') {
      // Recorded once (the claim of an update already sent or skipped is refused): later runs neither send nor count it.
      // WhatsApp only where it would have gone (not after STOP, not to a number that is someone else's now).
      const contact = channels.includes('whatsapp') ? await deps.store.getWhatsAppContact(settings.whatsappNumber!) : null;
      const wouldGo = channels.filter((c) => c === 'email' || (contact?.uid === user.uid && contact.optedIn));
      let recorded = false;
      for (const channel of wouldGo) {
        const claim = await deps.store.claimDelivery({ uid: user.uid, kind: 'daily', ref: slot.day, channel }, now);
        if (claim && (await deps.store.dropDelivery(claim, now))) recorded = true;
      }
      if (recorded) missed++;
      continue;
    }

    const day = slot.day;
    const language = languageOf(settings.language);
    const prices = await dailyPricesOf(quote, deps.siteUrl, session, dailySeriesOf(rights, settings.series), now);
    if (prices.length === 0) continue;
    const revisions = await dailyRevisionsOf(deps.store, deps.siteUrl, session, now, productsOf(prices));
    due++;
    const settingsLink = absoluteLink(deps.siteUrl, '/alerts');
    if (channels.includes('email')) {
      const mail = dailyUpdateMail(deps, user.email!, user.uid, mailDailyUpdate({ day, language, prices, revisions, settingsLink }));
      outcomes.push(await sendOnce(deps, { uid: user.uid, kind: 'daily', ref: day, channel: 'email' }, () => deps.sendMail(mail)));
    }
    if (channels.includes('whatsapp')) {
      const update = whatsappDailyUpdate({ day, language, prices, revisions, moreLink: moreLinkOf(prices, settingsLink) });
      const message = await whatsappFor(deps, user.uid, settings.whatsappNumber!, update.text, update.template, update.params);
      if (message) outcomes.push(await sendOnce(deps, { uid: user.uid, kind: 'daily', ref: day, channel: 'whatsapp' }, () => deps.whatsapp.send(message)));
    }
  }
  const report: DailyRunReport = {
    day: deliveryDayOf(now),
    due,
    sent: outcomes.filter((o) => o === 'sent').length,
    skipped: outcomes.filter((o) => o === 'skipped').length,
    failed: outcomes.filter((o) => o === 'failed').length,
    missed,
    windowHours,
  };
  (deps.log ?? console).info(
    `[delivery] daily update ${report.day}: ${report.due} due, ${report.sent} sent, ${report.skipped} already sent, ${report.failed} failed` +
      (missed > 0 ? `, ${missed} skipped: the run came after their ${windowHours}-hour window` : ''),
  );
  return report;
}
