/**
 * The WhatsApp price bot: what happens to a message a number sends us. Each message is handled
 * once (its id is claimed in the sent-log: Meta retries webhooks), its time opens the 24-hour
 * service window, STOP and START take effect at once for anyone, and a price question gets the
 * latest price, its change and a link — for a verified number of a plan with the bot (Premium
 * and up); anyone else gets the subscribe link. Questions are rate-limited per number.
 */
import { absoluteLink, priceLine } from '../../lib/delivery/messages.ts';
import { planAndUp } from '../../lib/delivery/planWords.ts';
import { BOT_HELP, readBotMessage } from '../../lib/delivery/priceBot.ts';
import { deliveryRightsOf } from '../../lib/delivery/rights.ts';
import { createRateLimiter, type RateLimiter } from '../mail/rateLimit.ts';
import type { DeliveryDeps } from './dispatch.ts';
import { quoteOf } from './quotes.ts';

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

export const createBotLimiter = (now?: () => number): RateLimiter => createRateLimiter(BOT_LIMITS, now);

export type InboundOutcome = 'replied' | 'duplicate' | 'rate_limited';

export async function handleInbound(deps: DeliveryDeps & { readonly limiter: RateLimiter }, message: InboundMessage): Promise<InboundOutcome> {
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

async function answer(deps: DeliveryDeps & { readonly limiter: RateLimiter }, message: InboundMessage): Promise<InboundOutcome> {
  const now = deps.now();
  const contact = await deps.store.recordWhatsAppInbound(message.from, now);
  const reply = (body: string) => deps.whatsapp.send({ kind: 'text', to: message.from, body });
  // The plans compared (a paywall link): /pricing.
  const subscribe = absoluteLink(deps.siteUrl, '/pricing');
  const request = message.type === 'text' && message.text !== null ? readBotMessage(message.text) : ({ kind: 'help' } as const);

  if (request.kind === 'stop') {
    await deps.store.setWhatsAppOptIn(message.from, false, now);
    await reply('You will get no more PolyIndex updates or alerts on WhatsApp. Send START to have them again.');
    return 'replied';
  }
  if (request.kind === 'start') {
    const back = await deps.store.setWhatsAppOptIn(message.from, true, now);
    await reply(
      back.uid
        ? 'PolyIndex updates and alerts on WhatsApp are on again.'
        : `This number is not linked to a PolyIndex account yet. Verify it on ${absoluteLink(deps.siteUrl, '/alerts')} to get prices here.`,
    );
    return 'replied';
  }
  if (request.kind === 'help') {
    await reply(BOT_HELP);
    return 'replied';
  }

  if (!deps.limiter.hit([`whatsapp:${message.from}`]).ok) return 'rate_limited';
  const user = contact.uid ? await deps.store.findUserBy('uid', contact.uid) : null;
  if (!user) {
    await reply(`This number is not linked to a PolyIndex account. Subscribe at ${subscribe} and verify your number on ${absoluteLink(deps.siteUrl, '/alerts')} to ask for prices here.`);
    return 'replied';
  }
  if (!deliveryRightsOf({ uid: user.uid, record: user }, now).priceBot) {
    await reply(`The WhatsApp price bot comes with ${planAndUp('priceBot')}. Compare plans at ${subscribe}`);
    return 'replied';
  }
  if (request.kind === 'unknown') {
    const hints = request.suggestions.map((i) => i.label).join('; ');
    await reply(hints ? `I did not find that price. Did you mean: ${hints}?` : `I did not find that price. ${BOT_HELP}`);
    return 'replied';
  }
  const { latest, previous } = await quoteOf(deps.store, request.instrument);
  await reply(
    latest
      ? `${priceLine({ instrument: request.instrument, latest, previous })}\n${absoluteLink(deps.siteUrl, request.instrument.path)}`
      : `${request.instrument.label}: no price yet.`,
  );
  return 'replied';
}
