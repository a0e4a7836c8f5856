/**
 * The weekly forecast digest job (part of the hourly delivery job): every user who chose the
 * digest on /alerts and whose plan has the daily update gets, on Mondays at their daily hour and
 * inside the same delivery window (schedule.ts, `weeklyDigestSlotOf`), one message per channel
 * they turned on, in their language (lib/delivery/forecastDigest.ts has the words): per product
 * they follow, the desk's open calls beside the baseline (plans that open the outlook pages), the
 * last scored calls and the twelve-month record. Once per user, channel and Monday however often
 * it runs, on however many instances: each message is claimed in the sent-log (`digest`, the
 * Monday) before it goes (dispatch.ts).
 */
import { decide, type SessionFacts } from '../../lib/access/policy.ts';
import { futureTrendProducts } from '../../lib/catalog.ts';
import { digestSeriesOf, mailForecastDigest, whatsappForecastDigest, type DigestProduct } from '../../lib/delivery/forecastDigest.ts';
import { languageOf } from '../../lib/delivery/language.ts';
import { absoluteLink } from '../../lib/delivery/messages.ts';
import { dailyChannelsOf, dailySeriesOf, deliveryRightsOf } from '../../lib/delivery/rights.ts';
import { weeklyDigestSlotOf, DEFAULT_DELIVERY_WINDOW_HOURS } from '../../lib/delivery/schedule.ts';
import { productForecastSeries, trackRecordPath } from '../../lib/forecasts/coverage.ts';
import { andList, findScreen, plansOpening } from '../../lib/plans.ts';
import { findSeries } from '../../lib/seriesCatalog.ts';
import type { Channel } from '../store/delivery.ts';
import { sendOnce, whatsappFor, type DeliveryDeps, type SendOutcome } from './dispatch.ts';
import { forecastDigestMail } from './mailMessages.ts';

export interface DigestRunReport {
  /** Users whose digest was due this run (a Monday inside their window, the option on, a channel). */
  readonly due: number;
  readonly sent: number;
  /** Already sent (or being sent) by an earlier run or another instance. */
  readonly skipped: number;
  readonly failed: number;
}

const PRICE_PREDICTION_PATH = '/indian-bazaar/pricePrediction';

/** The page of a series' forecasts for this reader: the outlook (plans that open it), else the public track record, else none. */
function pageOf(seriesId: string, session: SessionFacts | null, now: Date, openCalls: boolean): string | null {
  const product = futureTrendProducts.find((p) => productForecastSeries(p.slug) === seriesId);
  if (openCalls) return product ? `/future-trend/${product.slug}` : PRICE_PREDICTION_PATH;
  const track = product ? trackRecordPath(product.slug) : null;
  return track && decide(track, session, now).kind === 'allow' ? track : null;
}

/** "Premium and Platinum": the plans that open the outlook pages, from the plan table. */
export const openCallPlans = (): string => andList(plansOpening(findScreen('future-trends')!).map((p) => p.name));

export async function runForecastDigest(deps: DeliveryDeps): Promise<DigestRunReport> {
  const now = deps.now();
  const windowHours = deps.windowHours ?? DEFAULT_DELIVERY_WINDOW_HOURS;
  const outcomes: SendOutcome[] = [];
  let due = 0;
  if (!deps.forecasts) return { due, sent: 0, skipped: 0, failed: 0 };
  for (const settings of await deps.store.listActiveDeliverySettings()) {
    if (settings.forecastDigest !== true) continue;
    const slot = weeklyDigestSlotOf(settings.hour, now, windowHours);
    if (!slot.due) continue;
    const user = await deps.store.findUserBy('uid', settings.uid);
    if (!user) continue;
    const session = { uid: user.uid, record: user };
    const rights = deliveryRightsOf(session, now);
    const channels: Channel[] = dailyChannelsOf(rights, settings).filter((c) => (c === 'email' ? !!user.email : settings.whatsappNumber !== null));
    if (channels.length === 0) continue;

    const language = languageOf(settings.language);
    // Open calls and price levels only for plans that open the outlook pages (the access policy decides).
    const openCalls = decide(`/future-trend/${futureTrendProducts[0]!.slug}`, session, now).kind === 'allow';
    const products: DigestProduct[] = [];
    for (const seriesId of digestSeriesOf(dailySeriesOf(rights, settings.series))) {
      const series = findSeries(seriesId);
      if (!series) continue;
      const { forecasts, scores } = await deps.forecasts.forSeries(seriesId, slot.day);
      const page = pageOf(seriesId, session, now, openCalls);
      products.push({ label: series.label, unit: series.unit, forecasts, scores, link: page && absoluteLink(deps.siteUrl, page) });
    }
    due++;
    const settingsLink = absoluteLink(deps.siteUrl, '/alerts');
    const moreLink = products.find((p) => p.link)?.link ?? absoluteLink(deps.siteUrl, openCalls ? PRICE_PREDICTION_PATH : '/pricing');
    const input = { day: slot.day, language, products, openCalls, openCallPlans: openCallPlans(), moreLink, settingsLink };
    if (channels.includes('email')) {
      const mail = forecastDigestMail(deps, user.email!, user.uid, mailForecastDigest(input));
      outcomes.push(await sendOnce(deps, { uid: user.uid, kind: 'digest', ref: slot.day, channel: 'email' }, () => deps.sendMail(mail)));
    }
    if (channels.includes('whatsapp')) {
      const digest = whatsappForecastDigest(input);
      const message = await whatsappFor(deps, user.uid, settings.whatsappNumber!, digest.text, digest.template, digest.params);
      if (message) outcomes.push(await sendOnce(deps, { uid: user.uid, kind: 'digest', ref: slot.day, channel: 'whatsapp' }, () => deps.whatsapp.send(message)));
    }
  }
  const report = { due, sent: outcomes.filter((o) => o === 'sent').length, skipped: outcomes.filter((o) => o === 'skipped').length, failed: outcomes.filter((o) => o === 'failed').length };
  if (due > 0) (deps.log ?? console).info(`[delivery] forecast digest: ${report.due} due, ${report.sent} sent, ${report.skipped} already sent, ${report.failed} failed`);
  return report;
}
