/**
 * The WhatsApp price bot: what happens to a message a number sends us. Each message is handled
 * once (its id is claimed in the sent-log: Meta retries webhooks), its time opens the 24-hour
 * service window, STOP and START take effect at once for anyone, and a price question (English,
 * Hinglish or Hindi; one price, a family of grades, a day or "last week", a producer) gets its
 * answer in the subscriber's language, for a verified number of a plan with the bot (Premium and
 * up); anyone else gets the subscribe link. Questions are rate-limited per number; the first
 * question over the limit is told when to ask again, the rest get no answer until then.
 */
import {
  BOT_HELP,
  digestHeading,
  noBotInPlan,
  notLinked,
  priceAnswer,
  producerAnswer,
  producerListAnswer,
  rateLimited,
  STARTED,
  startedUnlinked,
  STOPPED,
  unknownPrice,
  type BotQuote,
} from '../../lib/delivery/botReplies.ts';
import { findInstrument, type Instrument } from '../../lib/delivery/instruments.ts';
import { answerLanguage, type DeliveryLanguage } from '../../lib/delivery/language.ts';
import { absoluteLink } from '../../lib/delivery/messages.ts';
import { planAndUp } from '../../lib/delivery/planWords.ts';
import { readBotMessage, type When } from '../../lib/delivery/priceBot.ts';
import { dailySeriesOf, deliveryRightsOf } from '../../lib/delivery/rights.ts';
import { deliveryDayOf, istClockOf } from '../../lib/delivery/schedule.ts';
import { priceName } from '../../lib/delivery/quoteLine.ts';
import { createRateLimiter } from '../mail/rateLimit.ts';
import type { ForecastSource } from '../forecasts/source.ts';
import { forecastAnswer, forecastSeriesOf, noForecast } from '../../lib/delivery/forecastReply.ts';
import { scoreboardOf } from '../../lib/forecasts/scoreboard.ts';
import { latestOpenDeskCall } from '../../lib/forecasts/view.ts';
import { futureTrendProducts } from '../../lib/catalog.ts';
import { productForecastSeries } from '../../lib/forecasts/coverage.ts';
import { findSeries } from '../../lib/seriesCatalog.ts';
import { subscriberOf, type DeliveryDeps } from './dispatch.ts';
import { NO_PRODUCER_PRICES, type ProducerPriceSource } from './producerPrices.ts';
import { COMPANY_PRICE_PATH, listPlace } from '../../lib/producerPrices.ts';
import { quoteOf, quoteOn } from './quotes.ts';

export interface InboundMessage {
  /** The sender's WhatsApp number (digits). */
  readonly from: string;
  /** Meta's message id (`wamid.…`). */
  readonly id: string;
  /** `text`, `image`, `button`, … */
  readonly type: string;
  readonly text: string | null;
}

/** Price questions per number: 10 a minute, 200 a day (STOP/START and help are never limited). */
export const BOT_LIMITS = [
  { windowMs: 60_000, max: 10 },
  { windowMs: 86_400_000, max: 200 },
];

export type BotDecision = { readonly ok: true } | { readonly ok: false; readonly retryAt: Date; readonly tell: boolean };

/**
 * The bot's limit per number, in this process (as the mail limits: N instances allow N times as
 * much; docs/delivery.md). Over the limit, `tell` is true once per refusal: that question is
 * answered with when to ask again, the following ones (until then) are not answered at all.
 */
export interface BotLimiter {
  check(number: string): BotDecision;
}

export function createBotLimiter(now: () => number = Date.now): BotLimiter {
  const limiter = createRateLimiter(BOT_LIMITS, now);
  const toldUntil = new Map<string, number>();
  return {
    check(number) {
      const decision = limiter.hit([`whatsapp:${number}`]);
      if (decision.ok) return decision;
      const at = now();
      const retryAt = at + decision.retryAfterSeconds * 1000;
      const tell = (toldUntil.get(number) ?? 0) <= at;
      if (tell) {
        toldUntil.set(number, retryAt);
        // Bounded like the limiter: the oldest notes go first.
        if (toldUntil.size > 50_000) toldUntil.delete(toldUntil.keys().next().value!);
      }
      return { ok: false, retryAt: new Date(retryAt), tell };
    },
  };
}

export type InboundOutcome = 'replied' | 'duplicate' | 'rate_limited';

type BotDeps = DeliveryDeps & {
  readonly limiter: BotLimiter;
  readonly producerPrices?: ProducerPriceSource | undefined;
  /** The forecasts the pages read ("pp forecast"); without it the bot says it has none. */
  readonly forecasts?: ForecastSource | undefined;
};

export async function handleInbound(deps: BotDeps, message: InboundMessage): Promise<InboundOutcome> {
  const claim = await deps.store.claimDelivery({ uid: message.from, kind: 'inbound', ref: message.id, channel: 'none' }, deps.now());
  if (!claim) return 'duplicate';
  try {
    const outcome = await answer(deps, message);
    await deps.store.completeDelivery(claim, deps.now());
    return outcome;
  } catch (error) {
    // Not handled: Meta's retry of this webhook may try again.
    await deps.store.releaseDelivery(claim).catch(() => false);
    throw error;
  }
}

/** The quote of one instrument for the day asked. */
async function quoteFor(deps: BotDeps, instrument: Instrument, when: When): Promise<BotQuote> {
  if (when.kind === 'on') return { instrument, ...(await quoteOn(deps.store, instrument, when.date)) };
  const now = await quoteOf(deps.store, instrument);
  if (when.kind === 'latest') return { instrument, ...now };
  return { instrument, ...now, then: (await quoteOn(deps.store, instrument, when.date)).latest };
}

async function answer(deps: BotDeps, message: InboundMessage): Promise<InboundOutcome> {
  const now = deps.now();
  const today = deliveryDayOf(now);
  const contact = await deps.store.recordWhatsAppInbound(message.from, now);
  const settings = contact.uid ? await deps.store.getDeliverySettings(contact.uid) : null;
  const text = message.type === 'text' ? message.text : null;
  const language: DeliveryLanguage = answerLanguage(settings?.language, text);
  const reply = (body: string) => deps.whatsapp.send({ kind: 'text', to: message.from, body });
  // The plans compared (a paywall link): /pricing.
  const subscribe = absoluteLink(deps.siteUrl, '/pricing');
  const alertsLink = absoluteLink(deps.siteUrl, '/alerts');
  const request = text !== null ? readBotMessage(text, today) : ({ kind: 'help' } as const);

  if (request.kind === 'stop') {
    await deps.store.setWhatsAppOptIn(message.from, false, now);
    await reply(STOPPED[language]);
    return 'replied';
  }
  if (request.kind === 'start') {
    const back = await deps.store.setWhatsAppOptIn(message.from, true, now);
    await reply(back.uid ? STARTED[language] : startedUnlinked(language, alertsLink));
    return 'replied';
  }
  if (request.kind === 'help') {
    await reply(BOT_HELP[language]);
    return 'replied';
  }

  const limit = deps.limiter.check(message.from);
  if (!limit.ok) {
    if (limit.tell) await reply(rateLimited(language, istClockOf(limit.retryAt)));
    return 'rate_limited';
  }
  const user = contact.uid ? await deps.store.findUserBy('uid', contact.uid) : null;
  if (!user) {
    await reply(notLinked(language, subscribe, alertsLink));
    return 'replied';
  }
  const rights = deliveryRightsOf(await subscriberOf(deps.store, user), now);
  if (!rights.priceBot) {
    await reply(noBotInPlan(language, planAndUp('priceBot'), subscribe));
    return 'replied';
  }
  if (request.kind === 'unknown') {
    await reply(unknownPrice(language, request.suggestions));
    return 'replied';
  }

  const answerFor = async (list: readonly Instrument[], when: When, heading: string | null = null): Promise<string> => {
    const quotes = await Promise.all(list.map((instrument) => quoteFor(deps, instrument, when)));
    const link = list[0] ? absoluteLink(deps.siteUrl, list[0].path) : null;
    const body = priceAnswer(quotes, when, language, today, link);
    return heading ? `${heading}\n${body}` : body;
  };

  if (request.kind === 'forecast') {
    const seriesId = forecastSeriesOf(request.instruments);
    const series = seriesId ? findSeries(seriesId) : undefined;
    if (!series || !deps.forecasts) {
      await reply(noForecast(language, request.instruments[0] ? priceName(request.instruments[0], language) : ''));
      return 'replied';
    }
    const { forecasts, scores } = await deps.forecasts.forSeries(series.id, today);
    // The outlook page of the product forecast on this series; else its price page.
    const product = futureTrendProducts.find((p) => productForecastSeries(p.slug) === series.id);
    const link = absoluteLink(deps.siteUrl, product ? `/future-trend/${product.slug}` : '/indian-bazaar/pricePrediction');
    const calls = { '1w': latestOpenDeskCall(forecasts, '1w', today), '1m': latestOpenDeskCall(forecasts, '1m', today), '3m': latestOpenDeskCall(forecasts, '3m', today) };
    await reply(forecastAnswer({ label: series.label, unit: series.unit, calls, board: scoreboardOf(forecasts, scores, today), link, today }, language));
    return 'replied';
  }
  if (request.kind === 'digest') {
    const ids = dailySeriesOf(rights, settings?.series ?? []);
    await reply(await answerFor(ids.flatMap((id) => findInstrument(id) ?? []), request.when, digestHeading(language)));
    return 'replied';
  }
  if (request.kind === 'producer') {
    const date = request.when.kind === 'latest' ? today : request.when.date;
    const listed = await (deps.producerPrices ?? NO_PRODUCER_PRICES).listPrices(request.producer, request.instruments, date);
    if (listed.length > 0) {
      const lists = listed.map((p) => ({ grade: p.line.grade, place: listPlace(p.line.location), value: p.value, date: p.date, change: p.change }));
      await reply(producerListAnswer(request.producer, lists, language, today, absoluteLink(deps.siteUrl, COMPANY_PRICE_PATH)));
      return 'replied';
    }
    const market = request.instruments.length > 0 ? await answerFor(request.instruments, request.when) : null;
    await reply(producerAnswer(request.producer, market, language));
    return 'replied';
  }
  await reply(await answerFor(request.instruments, request.when));
  return 'replied';
}
