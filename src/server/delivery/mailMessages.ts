/**
 * The e-mails of price delivery, through the site's mailer: the daily update and an alert (HTML
 * and text, List-Unsubscribe with RFC 8058 one-click by a signed link), and the welcome mail.
 */
import { plainRow, type MailDailyUpdate } from '../../lib/delivery/dailyUpdate.ts';
import { plainDigestRow, type DigestCell, type DigestRow, type MailForecastDigest } from '../../lib/delivery/forecastDigest.ts';
import type { DeliveryLanguage } from '../../lib/delivery/language.ts';
import { absoluteLink, type PriceQuote } from '../../lib/delivery/messages.ts';
import { priceName } from '../../lib/delivery/quoteLine.ts';
import type { RevisionAlertWords } from '../../lib/delivery/revisionAlerts.ts';
import { renderMail } from '../mail/templates.ts';
import type { OutgoingMail } from '../mail/mailer.ts';
import { listUnsubscribeHeaders, UNSUBSCRIBE_LINK_DAYS, unsubscribePageUrl, unsubscribeToken, type UnsubscribeTarget } from './links.ts';

interface MailContext {
  readonly siteUrl: string;
  readonly linkSecret: string;
  /** The mail's time: its unsubscribe links work for UNSUBSCRIBE_LINK_DAYS from it. */
  readonly now: () => Date;
}

function unsubscribable(context: MailContext, target: UnsubscribeTarget, text: string) {
  const token = unsubscribeToken(context.linkSecret, target, context.now());
  return {
    headers: listUnsubscribeHeaders(context.siteUrl, token),
    block: { link: { text, href: unsubscribePageUrl(context.siteUrl, token) } },
  };
}

/**
 * The daily update by e-mail: per group a table (name | price | change | as of) and the group's
 * link (when the reader's plan opens its screen), then "Change what you receive" and the
 * unsubscribe link; the plain-text part has one line per price under each group's heading.
 */
export function dailyUpdateMail(context: MailContext, to: string, uid: string, update: MailDailyUpdate): OutgoingMail {
  const { language } = update;
  const { headers, block } = unsubscribable(context, { uid, what: 'daily' }, update.unsubscribe);
  const mail = renderMail({
    lang: language,
    subject: update.subject,
    heading: update.heading,
    blocks: [
      {
        table: {
          columns: update.columns,
          sections: update.groups.map((group) => ({
            caption: group.title,
            rows: group.rows.map((row) => ({
              cells: row.line
                ? [{ text: row.line.name }, { text: row.line.price, nowrap: true }, { text: row.line.change ?? '–', tone: row.line.direction ?? undefined, nowrap: true }, { text: row.line.asOf, nowrap: true }]
                : [{ text: row.name }, { text: update.noPrice }, { text: '' }, { text: '' }],
              text: plainRow(row, language),
            })),
            link: group.link ?? undefined,
          })),
        },
      },
      { link: update.settings },
      block,
    ],
    footer: update.footer,
  });
  return { ...mail, to, headers };
}

/**
 * The weekly forecast digest by e-mail: one table (call | desk | statistical baseline), a section
 * per product with its page's link, then "Change what you receive" and the digest's own
 * unsubscribe link (it stops the digest, not the daily update).
 */
export function forecastDigestMail(context: MailContext, to: string, uid: string, digest: MailForecastDigest): OutgoingMail {
  const { language } = digest;
  const { headers, block } = unsubscribable(context, { uid, what: 'digest' }, digest.unsubscribe);
  // A call's arrow stays with its word and a range never breaks at its dash ("102.1–106.3" on one
  // line on a phone); the rest (a range in changes, "+1.0% to +3.9%", the score) may wrap.
  const unbroken = (call: string) => call.replace(/^([▲▼▶]) /, '$1\u00a0').replace(/–/g, '–\u2060');
  const cell = (row: DigestRow, c: DigestCell) => ({
    text: c.score ? `${unbroken(c.call)}: ${c.score}` : unbroken(c.call),
    // Open calls are coloured by their direction, as a price's change is.
    tone: row.kind === 'open' ? (c.call.startsWith('▲') ? ('up' as const) : c.call.startsWith('▼') ? ('down' as const) : undefined) : undefined,
  });
  const mail = renderMail({
    lang: language,
    subject: digest.subject,
    heading: digest.heading,
    blocks: [
      ...(digest.notice ? [{ paragraph: digest.notice }] : []),
      ...(digest.noProducts ? [{ paragraph: digest.noProducts }] : []),
      ...(digest.sections.length > 0
        ? [
            {
              table: {
                columns: digest.columns,
                // Words, not figures: every column reads from the left.
                align: 'left' as const,
                sections: digest.sections.map((section) => ({
                  caption: section.title,
                  rows: section.rows.map((row) => ({
                    cells: [{ text: row.label }, cell(row, row.desk), cell(row, row.baseline)],
                    text: plainDigestRow(row, language),
                  })),
                  link: section.link ? { text: digest.readMore, href: section.link } : undefined,
                })),
              },
            },
          ]
        : []),
      { link: digest.settings },
      block,
    ],
    footer: digest.footer,
  });
  return { ...mail, to, headers };
}

export function alertMail(context: MailContext, to: string, uid: string, alertId: string, headline: string, quote: PriceQuote, line: string, language: DeliveryLanguage): OutgoingMail {
  const { headers, block } = unsubscribable(context, { uid, what: 'alert', alertId }, language === 'hi' ? 'यह अलर्ट बंद करें' : 'Unsubscribe from this alert');
  const mail = renderMail({
    lang: language,
    subject: headline,
    heading: headline,
    blocks: [{ paragraph: line }, { link: { text: language === 'hi' ? `${priceName(quote.instrument, language)} देखें` : `See ${priceName(quote.instrument, language)}`, href: absoluteLink(context.siteUrl, quote.instrument.path) } }, block],
    footer: language === 'hi' ? 'यह ई-मेल आपको इसलिए मिला क्योंकि आपने PolyIndex पर यह भाव अलर्ट लगाया है।' : 'You receive this e-mail because you set this price alert on PolyIndex.',
  });
  return { ...mail, to, headers };
}

/** A producer-revision alert by e-mail: the revised lists, one per line, and the revisions screen. */
export function revisionAlertMail(context: MailContext, to: string, uid: string, alertId: string, words: RevisionAlertWords, link: string, language: DeliveryLanguage): OutgoingMail {
  const { headers, block } = unsubscribable(context, { uid, what: 'alert', alertId }, language === 'hi' ? 'यह अलर्ट बंद करें' : 'Unsubscribe from this alert');
  const mail = renderMail({
    lang: language,
    subject: words.headline,
    heading: words.headline,
    blocks: [{ paragraph: words.lines.join('\n') }, { link: { text: language === 'hi' ? 'सभी बदलाव देखें' : 'See all revisions', href: link } }, block],
    footer: language === 'hi' ? 'यह ई-मेल आपको इसलिए मिला क्योंकि आपने PolyIndex पर यह उत्पादक रेट बदलाव अलर्ट लगाया है।' : 'You receive this e-mail because you set this producer revision alert on PolyIndex.',
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

/**
 * A fresh unsubscribe link, asked for from the page of an expired one: sent to the account's own
 * address only (the page takes no address), so an old link found by someone else can at most
 * make the owner's inbox receive this.
 */
export function freshUnsubscribeMail(context: MailContext, to: string, target: UnsubscribeTarget): OutgoingMail {
  const token = unsubscribeToken(context.linkSecret, target, context.now());
  const what = { daily: 'the daily price update by e-mail', digest: 'the weekly forecast digest', alert: 'a price alert' }[target.what];
  const mail = renderMail({
    subject: 'Your PolyIndex unsubscribe link',
    heading: 'Your unsubscribe link',
    blocks: [
      { paragraph: `Someone opened an expired link to stop ${what} (links work for ${UNSUBSCRIBE_LINK_DAYS} days). Here is a fresh one; nothing changes unless you use it.` },
      { link: { text: { daily: 'Stop the daily update by e-mail', digest: 'Stop the weekly forecast digest', alert: 'Delete this price alert' }[target.what], href: unsubscribePageUrl(context.siteUrl, token) } },
      { link: { text: 'Change what you receive', href: absoluteLink(context.siteUrl, '/alerts') } },
    ],
    footer: 'You receive this e-mail because the link was asked for from a PolyIndex unsubscribe page. If that was not you, ignore it.',
  });
  return { ...mail, to, headers: listUnsubscribeHeaders(context.siteUrl, token) };
}
