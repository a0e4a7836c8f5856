/**
 * Revision alerts after the desk's producer list prices (src/lib/delivery/revisionAlerts.ts
 * decides what fires): each announcement a revision alert watches is recorded once per alert
 * (the sent-log key `alert:{uid}:{alertId}#{producer}.{product}.{effective}:{channel}`, created
 * in one transaction by `recordAlertFiring`), then sent, each message claimed once. Run after
 * every producer-price write that changed something, and by the hourly job (a write whose
 * process died before its alerts went); a re-run, another instance or a re-import of the same
 * file finds the firing recorded and sends nothing more. Unsent messages are retried with the
 * price alerts' (./alerts.ts, `retryAlerts`).
 */
import { z } from 'astro/zod';
import { decide } from '../../lib/access/policy.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { announcementKey, announcementsOf, firingOf, readRevisionTarget, revisionAlertParam, revisionAlertText, revisionAlertWords, revisionScreenOf, watches, type Announcement } from '../../lib/delivery/revisionAlerts.ts';
import type { DeliveryLanguage } from '../../lib/delivery/language.ts';
import { absoluteLink } from '../../lib/delivery/messages.ts';
import { priceAlertTemplate } from '../../lib/delivery/whatsappTemplates.ts';
import { DEMO_ENTERED_BY } from '../../lib/producerDemo.ts';
import type { AlertRecord, PendingDelivery } from '../store/delivery.ts';
import type { UserRecord } from '../store/users.ts';
import { whatsappFor, type DeliveryDeps } from './dispatch.ts';
import { revisionAlertMail } from './mailMessages.ts';

export const revisionRef = (alertId: string, a: Announcement): string => `${alertId}#${announcementKey(a)}`;

/** Records the firings due now (every revision alert × announcement it watches, once); returns the messages to send. */
export async function recordRevisionFirings(deps: DeliveryDeps): Promise<PendingDelivery[]> {
  const announcements = announcementsOf(await deps.store.listProducerPrices(), deps.now(), DEMO_ENTERED_BY);
  if (announcements.length === 0) return [];
  const targets = new Set(announcements.flatMap((a) => [`revisions.${a.product}`, `revisions.${a.product}.${a.producer}`]));
  const recorded: PendingDelivery[] = [];
  for (const target of targets) {
    for (const alert of await deps.store.listAlertsByInstrument(target)) {
      const watched = alert.kind === 'revision' ? readRevisionTarget(alert.instrument) : null;
      if (!watched) continue;
      for (const announcement of announcements.filter((a) => watches(watched, a))) {
        const firing = firingOf(announcement, alert.createdAt);
        if (!firing) continue;
        const deliveries = revisionDeliveries(alert, firing);
        if (await deps.store.recordAlertFiring(alert.id, deliveries, deps.now())) recorded.push(...deliveries);
      }
    }
  }
  return recorded;
}

const revisionDeliveries = (alert: AlertRecord, firing: Announcement): PendingDelivery[] =>
  alert.channels.map((channel) => ({ uid: alert.uid, kind: 'alert', ref: revisionRef(alert.id, firing), channel, payload: JSON.stringify({ announcement: firing }) }));

const AnnouncementPayload = z.object({
  announcement: z.object({
    producer: z.string(),
    product: z.string(),
    effective: z.string(),
    lines: z.array(z.object({ line: z.string(), value: z.number(), previous: z.object({ date: z.string(), value: z.number() }), enteredAt: z.string() })).min(1),
  }),
});

/** The announcement a recorded revision-alert message fired for, or null for a payload that is not one. */
export function announcementOfPayload(payload: string | null): Announcement | null {
  try {
    const parsed = AnnouncementPayload.safeParse(JSON.parse(payload ?? 'null'));
    return parsed.success ? parsed.data.announcement : null;
  } catch {
    return null;
  }
}

/**
 * How to send one revision alert message (the caller checked the alert and the plan's right to
 * alerts), or null when it must not go. Its link is the revisions screen filtered to the
 * producer and product when the reader's plan opens it, else /alerts.
 */
export async function revisionSender(
  deps: DeliveryDeps,
  input: { readonly alert: AlertRecord; readonly user: UserRecord; readonly channel: string; readonly payload: string | null; readonly language: DeliveryLanguage; readonly whatsappNumber: string | null },
): Promise<(() => Promise<unknown>) | null> {
  const { alert, user, channel, language } = input;
  const announcement = announcementOfPayload(input.payload);
  if (!announcement) return null;
  const now = deps.now();
  const words = revisionAlertWords(announcement, language, isoDateOf(now));
  const screen = revisionScreenOf(announcement);
  const opens = decide(screen.slice(0, screen.indexOf('?')), { uid: user.uid, record: user }, now).kind === 'allow';
  const link = absoluteLink(deps.siteUrl, opens ? screen : '/alerts');
  if (channel === 'email') {
    if (!user.email) return null;
    const mail = revisionAlertMail(deps, user.email, user.uid, alert.id, words, link, language);
    return () => deps.sendMail(mail);
  }
  if (channel === 'whatsapp') {
    if (!input.whatsappNumber) return null;
    const message = await whatsappFor(deps, user.uid, input.whatsappNumber, revisionAlertText(words, link, language), priceAlertTemplate(language), [words.event, revisionAlertParam(words), link]);
    return message ? () => deps.whatsapp.send(message) : null;
  }
  return null;
}
