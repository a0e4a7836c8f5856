/**
 * The words of alerts and single price lines, for WhatsApp and e-mail, in English or Hindi: a
 * price line (name, price with unit, change, day: formed by `quoteLine`), an alert's headline,
 * and absolute links. Templates live in whatsappTemplates.ts, the daily update in dailyUpdate.ts,
 * the bot's answers in botReplies.ts.
 */
import { formatPercentThreshold } from '../numbers.ts';
import type { AlertKind } from './alerts.ts';
import type { Instrument } from './instruments.ts';
import type { DeliveryLanguage } from './language.ts';
import { priceName, priceText, quoteLine, type PriceQuote } from './quoteLine.ts';

export type { PriceQuote };

/** "PP Raffia Mumbai: ₹104.50/kg ▲0.50 (0.48%) · 24 Nov" */
export function priceLine(quote: PriceQuote, language: DeliveryLanguage = 'en', today?: string): string {
  const line = quoteLine(quote, language, today);
  return `${line.name}: ${[line.price, ...(line.change ? [line.change] : [])].join(' ')} · ${line.asOf}`;
}

/** The price, change and day of a line, without its name ("₹104.50/kg ▲0.50 (0.48%) · 24 Nov"). */
export function priceNow(quote: PriceQuote, language: DeliveryLanguage = 'en'): string {
  const line = quoteLine(quote, language);
  return `${[line.price, ...(line.change ? [line.change] : [])].join(' ')} · ${line.asOf}`;
}

/** An instrument without any price yet. */
export const noPriceLine = (instrument: Instrument, language: DeliveryLanguage = 'en'): string =>
  `${priceName(instrument, language)}: ${language === 'hi' ? 'अभी भाव नहीं' : 'no price yet'}`;

export interface AlertFacts {
  readonly kind: AlertKind;
  readonly value: number;
}

const percent = formatPercentThreshold;

export function alertCondition(instrument: Instrument, { kind, value }: AlertFacts, language: DeliveryLanguage = 'en'): string {
  const price = priceText(instrument.basis, value, language);
  if (language === 'hi') {
    if (kind === 'move') return `एक दिन में ${percent(value)} या ज़्यादा बदला`;
    return kind === 'above' ? `${price} पर या उससे ऊपर पहुँचा` : `${price} पर या उससे नीचे आया`;
  }
  if (kind === 'move') return `moves ${percent(value)} or more in a day`;
  return `${kind === 'above' ? 'reaches or passes' : 'falls to or below'} ${price}`;
}

/** "PP Raffia Mumbai reaches or passes ₹110.00/kg": what happened (the alert template's first parameter). */
export const alertEvent = (instrument: Instrument, alert: AlertFacts, language: DeliveryLanguage = 'en'): string => `${priceName(instrument, language)} ${alertCondition(instrument, alert, language)}`;

/** "Price alert: PP Raffia Mumbai reaches or passes ₹110.00/kg" / "भाव अलर्ट: PP रैफ़िया मुंबई ₹110.00/किलो पर या उससे ऊपर पहुँचा" */
export const alertHeadline = (instrument: Instrument, alert: AlertFacts, language: DeliveryLanguage = 'en'): string =>
  `${language === 'hi' ? 'भाव अलर्ट' : 'Price alert'}: ${alertEvent(instrument, alert, language)}`;

/** The alert on WhatsApp as free text (inside the service window). */
export const alertText = (headline: string, line: string, link: string, language: DeliveryLanguage): string =>
  `*${headline}*\n${line}\n${link}\n${language === 'hi' ? 'अलर्ट बंद करने के लिए STOP भेजें।' : 'Reply STOP to end alerts.'}`;

/** Links are absolute: a message is read outside the site. */
export const absoluteLink = (siteUrl: string, path: string): string => new URL(path, siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`).toString();
