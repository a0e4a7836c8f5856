/**
 * The price bot's answers, in English or Hindi (the subscriber's chosen language; a stranger's
 * is the script they wrote in). Price lines come from `quoteLine`, like every delivery message.
 */
import { findGrade } from '../catalog.ts';
import { LIST_PRICE_BASIS } from '../producerPrices.ts';
import type { IsoDate } from '../dates.ts';
import type { Quote } from './alerts.ts';
import { shortDay } from './dateWords.ts';
import type { Instrument } from './instruments.ts';
import type { DeliveryLanguage } from './language.ts';
import type { When } from './priceBot.ts';
import type { Producer } from './producers.ts';
import { priceName, priceText, quoteLine } from './quoteLine.ts';
import { GRADE_HI } from './vocabulary.ts';

type Words = Readonly<Record<DeliveryLanguage, string>>;

export const BOT_HELP: Words = {
  en:
    'Ask for a price by name, e.g. "pp raffia mumbai", "hdpe" (every grade), "aaj pp ka bhav", "pp raffia 23 nov", "naphtha last week" or "usd inr". ' +
    'Send STOP to end daily updates and alerts on WhatsApp, START to resume them.',
  hi:
    'भाव के लिए नाम लिखें, जैसे "पीपी रैफ़िया मुंबई", "HDPE" (सभी ग्रेड), "आज PP का भाव", "PP रैफ़िया 23 नवंबर", "नेफ़्था पिछले हफ्ते" या "डॉलर"। ' +
    'WhatsApp पर दैनिक अपडेट और अलर्ट बंद करने के लिए STOP भेजें, फिर से पाने के लिए START।',
};

export const STOPPED: Words = {
  en: 'You will get no more PolyIndex updates or alerts on WhatsApp. Send START to have them again.',
  hi: 'अब WhatsApp पर PolyIndex के अपडेट और अलर्ट नहीं आएँगे। फिर से पाने के लिए START भेजें।',
};

export const STARTED: Words = { en: 'PolyIndex updates and alerts on WhatsApp are on again.', hi: 'WhatsApp पर PolyIndex के अपडेट और अलर्ट फिर से चालू हैं।' };

export const startedUnlinked = (language: DeliveryLanguage, alertsLink: string): string =>
  language === 'hi'
    ? `यह नंबर अभी किसी PolyIndex खाते से जुड़ा नहीं है। यहाँ भाव पाने के लिए ${alertsLink} पर इसे सत्यापित करें।`
    : `This number is not linked to a PolyIndex account yet. Verify it on ${alertsLink} to get prices here.`;

export const notLinked = (language: DeliveryLanguage, subscribeLink: string, alertsLink: string): string =>
  language === 'hi'
    ? `यह नंबर किसी PolyIndex खाते से जुड़ा नहीं है। यहाँ भाव पूछने के लिए ${subscribeLink} पर प्लान लें और ${alertsLink} पर अपना नंबर सत्यापित करें।`
    : `This number is not linked to a PolyIndex account. Subscribe at ${subscribeLink} and verify your number on ${alertsLink} to ask for prices here.`;

export const noBotInPlan = (language: DeliveryLanguage, planAndUp: string, subscribeLink: string): string =>
  language === 'hi'
    ? `WhatsApp प्राइस बॉट ${planAndUp.replace(/^the (.+) plan and up$/, '$1 और ऊपर के प्लान')} में है। प्लान की तुलना करें: ${subscribeLink}`
    : `The WhatsApp price bot comes with ${planAndUp}. Compare plans at ${subscribeLink}`;

/** "Ask again after 10:42 IST": once, when a number asks too often. */
export const rateLimited = (language: DeliveryLanguage, retryAt: string): string =>
  language === 'hi'
    ? `आपने कम समय में बहुत भाव पूछे हैं। ${retryAt} के बाद फिर पूछें।`
    : `You have asked for many prices in a short time. Ask again after ${retryAt}.`;

export function unknownPrice(language: DeliveryLanguage, suggestions: readonly Instrument[]): string {
  if (suggestions.length === 0) return language === 'hi' ? `यह भाव नहीं मिला। ${BOT_HELP.hi}` : `I did not find that price. ${BOT_HELP.en}`;
  const names = suggestions.map((i) => `• ${priceName(i, language)}`).join('\n');
  return language === 'hi' ? `यह भाव नहीं मिला। क्या आप इनमें से कोई पूछ रहे हैं?\n${names}` : `I did not find that price. Did you mean:\n${names}`;
}

/** One instrument's answer: its quote for the day asked (`then` for "last week": the price then). */
export interface BotQuote {
  readonly instrument: Instrument;
  readonly latest: Quote | null;
  readonly previous: Quote | null;
  /** For `since`: the last price on or before that day. */
  readonly then?: Quote | null;
}

const NO_PRICE: Words = { en: 'no price yet', hi: 'अभी भाव नहीं' };

/** "*PP Raffia Mumbai* ₹104.50/kg ▲0.50 (0.48%) · 24 Nov" (or, for `since`, the change since then). */
export function botLine(quote: BotQuote, when: When, language: DeliveryLanguage, today: IsoDate): string {
  const name = priceName(quote.instrument, language);
  if (!quote.latest) {
    if (when.kind === 'on') return `*${name}* ${language === 'hi' ? `${shortDay(when.date, language, today)} तक कोई भाव नहीं` : `no price on or before ${shortDay(when.date, language, today)}`}`;
    return `*${name}* ${NO_PRICE[language]}`;
  }
  if (when.kind === 'since') {
    const then = quote.then ?? null;
    const line = quoteLine({ instrument: quote.instrument, latest: quote.latest, previous: then }, language, today);
    if (!then) return `*${name}* ${line.price} · ${line.asOf} (${language === 'hi' ? `${shortDay(when.date, language, today)} का भाव नहीं` : `no price on ${shortDay(when.date, language, today)}`})`;
    const thenLine = quoteLine({ instrument: quote.instrument, latest: then, previous: null }, language, today);
    const change = line.change ? ` ${line.change}` : '';
    return language === 'hi'
      ? `*${name}* ${line.price} (${line.asOf})${change} ${thenLine.asOf} से (तब ${thenLine.price})`
      : `*${name}* ${line.price} (${line.asOf})${change} since ${thenLine.asOf} (then ${thenLine.price})`;
  }
  const line = quoteLine({ instrument: quote.instrument, latest: quote.latest, previous: quote.previous }, language, today);
  return `*${line.name}* ${[line.price, ...(line.change ? [line.change] : [])].join(' ')} · ${line.asOf}`;
}

/** The heading of an answer for a day other than today ("As of 23 Nov:", "Since 17 Nov:"). */
function whenHeading(when: When, language: DeliveryLanguage, today: IsoDate): string | null {
  if (when.kind === 'on') return language === 'hi' ? `${shortDay(when.date, language, today)} तक के भाव:` : `As of ${shortDay(when.date, language, today)}:`;
  if (when.kind === 'since') {
    const span = when.span === 'week' ? (language === 'hi' ? 'हफ्ते' : 'week') : language === 'hi' ? 'महीने' : 'month';
    return language === 'hi' ? `पिछले ${span} से अब तक (${shortDay(when.date, language, today)} से):` : `Now, and the change since last ${span} (${shortDay(when.date, language, today)}):`;
  }
  return null;
}

/** A price answer: the heading for the day asked, one line per price, the link of the first one's screen. */
export function priceAnswer(quotes: readonly BotQuote[], when: When, language: DeliveryLanguage, today: IsoDate, link: string | null): string {
  const heading = whenHeading(when, language, today);
  return [...(heading ? [heading] : []), ...quotes.map((q) => botLine(q, when, language, today)), ...(link ? [link] : [])].join('\n');
}

/** One producer list price as the bot words it: its grade and place, the list, since when, and its last change. */
export interface ProducerListLine {
  /** Catalog grade key (`ppRaffia`). */
  readonly grade: string;
  /** "ex-works Jamnagar". */
  readonly place: string;
  readonly value: number;
  readonly date: IsoDate;
  readonly change: number | null;
}


/**
 * A producer's lists, one line each: "*Reliance (RIL)* PP Raffia, ex-works Jamnagar: ₹104.50/kg
 * from 24 Nov (+₹1.50/kg)", then what the price is (list price, GST extra).
 */
export function producerListAnswer(producer: Producer, lists: readonly ProducerListLine[], language: DeliveryLanguage, today: IsoDate, link: string | null): string {
  const hi = language === 'hi';
  const name = hi ? producer.nameHi : producer.name;
  const lines = lists.map((l) => {
    const ref = findGrade(l.grade);
    const grade = ref ? `${ref.polymer.slug} ${hi ? (GRADE_HI[ref.grade.name] ?? ref.grade.name) : ref.grade.name}` : l.grade;
    const since = hi ? `${shortDay(l.date, language, today)} से` : `from ${shortDay(l.date, language, today)}`;
    const change = l.change === null || l.change === 0 ? '' : ` (${l.change > 0 ? '+' : '−'}${priceText(LIST_PRICE_BASIS, Math.abs(l.change), language)})`;
    return `*${name}* ${grade}, ${l.place}: ${priceText(LIST_PRICE_BASIS, l.value, language)} ${since}${change}`;
  });
  const note = hi ? 'उत्पादक की लिस्ट प्राइस, GST अलग।' : 'Producer list prices, GST extra.';
  return [...lines, note, ...(link ? [link] : [])].join('\n');
}

/** A producer's list price: not published yet; the market price instead, when the question named one. */
export function producerAnswer(producer: Producer, marketAnswer: string | null, language: DeliveryLanguage): string {
  const name = language === 'hi' ? producer.nameHi : producer.name;
  const notYet = language === 'hi' ? `${name} की लिस्ट प्राइस अभी PolyIndex पर नहीं है।` : `${name} list prices are not on PolyIndex yet.`;
  if (!marketAnswer) return `${notYet} ${language === 'hi' ? 'बाज़ार भाव पूछें, जैसे "PP रैफ़िया मुंबई"।' : 'Ask for the market price instead, e.g. "pp raffia mumbai".'}`;
  return `${notYet} ${language === 'hi' ? 'बाज़ार भाव:' : 'The market price:'}\n${marketAnswer}`;
}

/** The heading of "aaj ka bhav" (the subscriber's daily-update prices). */
export const digestHeading = (language: DeliveryLanguage): string => (language === 'hi' ? 'आपके दैनिक अपडेट के भाव:' : 'Your daily-update prices:');
