/**
 * What /alerts shows beside its forms, from the same words and prices the jobs send:
 *   - GET /api/alerts/preview?series=a,b&hour=9[&language=hi]: the next daily update as the phone will show
 *     it (the WhatsApp template's body), for prices not saved yet;
 *   - GET /api/alerts/price?series=id: a price's latest value and unit, beside an alert's
 *     threshold.
 * The message is built by the job's own builders (dailyPricesOf, dailyRevisionsOf, whatsappDailyUpdate), so the
 * preview is what the job sends: the template's body as the phone shows it.
 */
import { z } from 'astro/zod';
import { addDays } from '../../lib/dates.ts';
import { whatsappDailyUpdate } from '../../lib/delivery/dailyUpdate.ts';
import { findInstrument } from '../../lib/delivery/instruments.ts';
import { DELIVERY_LANGUAGES, type DeliveryLanguage } from '../../lib/delivery/language.ts';
import { absoluteLink } from '../../lib/delivery/messages.ts';
import { priceText } from '../../lib/delivery/quoteLine.ts';
import { renderTemplate } from '../../lib/delivery/whatsappTemplates.ts';
import { dailyPricesOf, dailyRevisionsOf, moreLinkOf, productsOf } from './dailyUpdate.ts';
import { deliveryDayOf, istHourOf } from '../../lib/delivery/schedule.ts';
import { splitIds } from '../../lib/compare/state.ts';
import { json, unauthenticated } from '../http/responses.ts';
import { parseQuery } from '../http/query.ts';
import { deliveryDeps } from './index.ts';
import { forbidden, instrumentId, MAX_DAILY_SERIES, notInPlan, rightsOf, signedIn } from './http.ts';
import { quoteCache } from './quotes.ts';
import type { Session } from '../auth/session.ts';
import type { EndpointHandler } from '../edge/endpoint.ts';
import type { CurrentPrice, DailyPreview } from '../../lib/delivery/view.ts';

/** Answers about one visitor's choices, fetched as they choose: never kept by a cache. */
const NOT_KEPT = { headers: { 'Cache-Control': 'private, no-store' } };

/** The day the next update at `hour` (IST) goes out: today until that hour has come, else tomorrow. */
export function nextUpdateDay(hour: number, now: Date): string {
  const today = deliveryDayOf(now);
  return istHourOf(now) < hour ? today : addDays(today, 1);
}

const hourParam = z
  .string({ error: 'hour is required: a whole hour, 0 to 23 (IST).' })
  .regex(/^\d{1,2}$/, 'hour must be a whole hour, 0 to 23 (IST).')
  .transform(Number)
  .refine((h) => h <= 23, 'hour must be 0 to 23 (IST).');

export const PreviewQuery = z.object({
  series: z
    .string({ error: 'series is required: price ids separated by commas (it may be empty).' })
    .max(MAX_DAILY_SERIES * 81, `Choose at most ${MAX_DAILY_SERIES} prices.`)
    .transform((text) => splitIds(text))
    .pipe(z.array(instrumentId).max(MAX_DAILY_SERIES, `Choose at most ${MAX_DAILY_SERIES} prices.`)),
  hour: hourParam,
  language: z.enum(DELIVERY_LANGUAGES as [DeliveryLanguage, ...DeliveryLanguage[]], { error: `language must be one of ${DELIVERY_LANGUAGES.join(', ')}.` }).default('en'),
});

export const PriceQuery = z.object({ series: instrumentId });

/** The next update of these prices at `hour`, as the phone will show it (null without prices). */
export async function previewFor(session: Session, ids: readonly string[], hour: number, language: DeliveryLanguage): Promise<DailyPreview> {
  const deps = await deliveryDeps();
  const now = deps.now();
  const day = nextUpdateDay(hour, now);
  const reader = { uid: session.uid, record: session.record };
  const prices = await dailyPricesOf(quoteCache(deps.store), deps.siteUrl, reader, ids, now);
  if (prices.length === 0) return { day, hour, message: null };
  const revisions = await dailyRevisionsOf(deps.store, deps.siteUrl, reader, now, productsOf(prices));
  const update = whatsappDailyUpdate({ day, language, prices, revisions, moreLink: moreLinkOf(prices, absoluteLink(deps.siteUrl, '/alerts')) });
  return { day, hour, message: renderTemplate(update.template, update.params) };
}

/** A price's latest value in words ("612.50 US$/t"), with its unit and date. */
export async function currentPriceOf(id: string): Promise<CurrentPrice> {
  const instrument = findInstrument(id)!;
  const { latest } = await quoteCache((await deliveryDeps()).store)(instrument);
  return { series: instrument.id, unit: instrument.unit, latest, text: latest ? priceText(instrument.basis, latest.value, 'en') : 'no price yet' };
}

/** GET /api/alerts/preview?series=a,b&hour=9[&language=en|hi] → `{day, hour, message}` (message null without prices). */
export const getPreview: EndpointHandler = async ({ locals, url }) => {
  const session = signedIn(locals);
  if (!session) return unauthenticated();
  const query = parseQuery(url, PreviewQuery);
  if (!query.ok) return query.response;
  const rights = rightsOf(session);
  if (!rights.dailyUpdate) return forbidden('dailyUpdate');
  const refused = notInPlan(session, rights, query.data.series);
  if (refused) return refused;
  return json(await previewFor(session, query.data.series, query.data.hour, query.data.language), NOT_KEPT);
};

/** GET /api/alerts/price?series=id → `{series, unit, latest: {date, value} | null, text}` (alerts' plans only). */
export const getPrice: EndpointHandler = async ({ locals, url }) => {
  const session = signedIn(locals);
  if (!session) return unauthenticated();
  const query = parseQuery(url, PriceQuery);
  if (!query.ok) return query.response;
  if (!rightsOf(session).alerts) return forbidden('alerts');
  return json(await currentPriceOf(query.data.series), NOT_KEPT);
};
