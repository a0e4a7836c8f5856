/**
 * The e-mails of price delivery, through the site's mailer: the daily update and an alert (HTML
 * and text, List-Unsubscribe with RFC 8058 one-click by a signed link), and the welcome mail.
 */
import { toSlashedDate } from '../../lib/dates.ts';
import { absoluteLink, type PriceQuote } from '../../lib/delivery/messages.ts';
import { renderMail } from '../mail/templates.ts';
import type { OutgoingMail } from '../mail/mailer.ts';
import { listUnsubscribeHeaders, unsubscribePageUrl, unsubscribeToken, type UnsubscribeTarget } from './links.ts';

interface MailContext {
  readonly siteUrl: string;
  readonly linkSecret: string;
}

function unsubscribable(context: MailContext, target: UnsubscribeTarget, what: string) {
  const token = unsubscribeToken(context.linkSecret, target);
  return {
    headers: listUnsubscribeHeaders(context.siteUrl, token),
    block: { link: { text: `Unsubscribe from ${what}`, href: unsubscribePageUrl(context.siteUrl, token) } },
  };
}

/** One price of the daily update: its line, and the absolute link of its screen when the reader's plan opens it. */
export interface DailyPrice {
  readonly label: string;
  readonly line: string;
  readonly screen: string | null;
}

export function dailyUpdateMail(context: MailContext, to: string, uid: string, day: string, prices: readonly DailyPrice[]): OutgoingMail {
  const { headers, block } = unsubscribable(context, { uid, what: 'daily' }, 'the daily update');
  const mail = renderMail({
    subject: `PolyIndex daily prices, ${toSlashedDate(day)}`,
    heading: 'Your daily prices',
    blocks: [
      ...prices.map(({ label, line, screen }) => ({ paragraph: line, ...(screen ? { link: { text: `See ${label}`, href: screen } } : {}) })),
      { link: { text: 'Change what you receive', href: absoluteLink(context.siteUrl, '/alerts') } },
      block,
    ],
    footer: 'You receive this e-mail because you asked for the PolyIndex daily update on /alerts.',
  });
  return { ...mail, to, headers };
}

export function alertMail(context: MailContext, to: string, uid: string, alertId: string, headline: string, quote: PriceQuote, line: string): OutgoingMail {
  const { headers, block } = unsubscribable(context, { uid, what: 'alert', alertId }, 'this alert');
  const mail = renderMail({
    subject: headline,
    heading: headline,
    blocks: [{ paragraph: line }, { link: { text: `See ${quote.instrument.label}`, href: absoluteLink(context.siteUrl, quote.instrument.path) } }, block],
    footer: 'You receive this e-mail because you set this price alert on PolyIndex.',
  });
  return { ...mail, to, headers };
}

/**
 * The welcome mail names nobody: it goes to an address nobody has confirmed, and a display name
 * is whatever the sign-up typed, so it could carry someone else's words to that address.
 */
export function welcomeMail(siteUrl: string, to: string): OutgoingMail {
  const mail = renderMail({
    subject: 'Welcome to PolyIndex',
    heading: 'Welcome to PolyIndex',
    blocks: [
      { paragraph: 'Your PolyIndex account is ready. For the next two days you can see every price screen: feedstocks, city-wise Indian prices, international offers and historical data.' },
      { paragraph: 'Plans add daily price updates by WhatsApp and e-mail, price alerts and the WhatsApp price bot.' },
      { link: { text: 'See the plans', href: absoluteLink(siteUrl, '/pricing') } },
      { link: { text: 'Choose your daily prices and alerts', href: absoluteLink(siteUrl, '/alerts') } },
    ],
    footer: 'You receive this e-mail once, because an account was created with this address on PolyIndex.',
  });
  return { ...mail, to };
}
