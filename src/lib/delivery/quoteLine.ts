/**
 * How one price reads in a delivery message, in English or Hindi: its short name, the price with
 * its unit in the one spelling (₹104.50/kg, US$612.50/t, US$73.40/bbl; ₹104.50/किलो, US$612.50/टन),
 * the change on the previous price (▲0.50 (0.48%), ▼…, ▬ steady) and the day it is for. Every
 * message (the daily update on WhatsApp and by e-mail, alerts, the bot) forms its price lines
 * with `quoteLine` and nothing else. The numbers are src/lib/numbers.ts's, as on the screens:
 * the decimals of the price's quoting (its basis), ₹ in Indian grouping, US$ and RMB in
 * international grouping, in both languages.
 */
import { findCity, findFeedstock, findGrade, findSubMarket } from '../catalog.ts';
import { formatPercentSize, formatPrice, priceValue, type Quoting } from '../numbers.ts';
import { UNIT_FACTS, type PriceUnit as Unit } from '../units.ts';
import { findSeries } from '../seriesCatalog.ts';
import type { IsoDate } from '../dates.ts';
import { percentChange, type Quote } from './alerts.ts';
import { shortDay } from './dateWords.ts';
import type { Instrument } from './instruments.ts';
import type { DeliveryLanguage } from './language.ts';
import { CITY_HI, FEEDSTOCK_NAMES, GRADE_HI, MARKET_HI } from './vocabulary.ts';

export interface PriceQuote {
  readonly instrument: Instrument;
  readonly latest: Quote;
  readonly previous: Quote | null;
}

export type Direction = 'up' | 'down' | 'flat';

/** One price, in words: each part is one line of text (no line breaks). */
export interface QuoteLine {
  /** "PP Raffia Mumbai", "Naphtha Japan", "PP रैफ़िया मुंबई". */
  readonly name: string;
  /** "₹104.50/kg", "US$612.50/t", "₹104.50/किलो". */
  readonly price: string;
  /** "▲0.50 (0.48%)", "▼2.50 (0.41%)", "▬ steady"; null without a previous price. */
  readonly change: string | null;
  readonly direction: Direction | null;
  /** The price's day: "24 Nov" ("24 Nov 2025" in another year than `today`). */
  readonly asOf: string;
  readonly date: IsoDate;
}

/**
 * What a unit's price is for, in each language, after the amount: ₹104.50/kg, US$612.50/टन. The
 * rupee per US dollar needs none: "USD/INR: ₹84.3215" says it. The currency sign and the number
 * are src/lib/numbers.ts's (the decimals of the price's quoting, Indian grouping).
 */
const PER_WORDS: Readonly<Record<Unit, Readonly<Record<DeliveryLanguage, string>>>> = {
  '₹/kg': { en: '/kg', hi: '/किलो' },
  'US$/bbl': { en: '/bbl', hi: '/बैरल' },
  'US$/t': { en: '/t', hi: '/टन' },
  'RMB/t': { en: '/t', hi: '/टन' },
  '₹/US$': { en: '', hi: '' },
};

/** "₹104.50/kg", "US$612.50/t", "US$1,085/t" (a polymer quoted in whole dollars), "RMB 7,450/टन", "₹84.3215". */
export function priceText(quoting: Quoting, value: number, language: DeliveryLanguage): string {
  return `${value < 0 ? '−' : ''}${UNIT_FACTS[quoting.unit].symbol}${formatPrice(Math.abs(value), quoting)}${PER_WORDS[quoting.unit][language]}`;
}

/** The instrument's short name in messages. */
export function priceName(instrument: Instrument, language: DeliveryLanguage): string {
  const hi = language === 'hi';
  const source = instrument.source;
  if (source.kind === 'city') {
    const ref = findGrade(source.grade);
    const city = findCity(source.city);
    if (!ref || !city) return instrument.label;
    return `${ref.polymer.slug} ${hi ? (GRADE_HI[ref.grade.name] ?? ref.grade.name) : ref.grade.name} ${hi ? (CITY_HI[city.slug] ?? city.name) : city.name}`;
  }
  const series = findSeries(source.seriesId);
  if (!series) return instrument.label;
  if (series.family === 'fx') return hi ? 'डॉलर/रुपया' : 'USD/INR';
  if (series.family === 'historical') {
    const ref = findGrade(series.grade);
    if (!ref) return instrument.label;
    const grade = `${ref.polymer.slug} ${hi ? (GRADE_HI[ref.grade.name] ?? ref.grade.name) : ref.grade.name}`;
    if (series.market === 'Mumbai') return hi ? `${grade} मुंबई एक्स-वर्क्स` : `${grade} Mumbai ex-works`;
    return `${grade} CIF NS`;
  }
  const feedstock = findFeedstock(series.product);
  const market = feedstock && findSubMarket(feedstock, series.market);
  if (!feedstock || !market) return instrument.label;
  const name = FEEDSTOCK_NAMES[feedstock.slug]?.[language] ?? feedstock.name;
  // Brent is the market and the name ("Brent crude"): one market, not said twice.
  if (feedstock.subMarkets.length === 1 && feedstock.slug === 'Crude') return name;
  return `${name} ${hi ? (MARKET_HI[market.display] ?? market.display) : market.display}`;
}

const STEADY: Readonly<Record<DeliveryLanguage, string>> = { en: 'steady', hi: 'स्थिर' };

/** "▲0.50 (0.48%)", "▼2.50 (0.41%)", "▬ steady". */
export function changeText(quoting: Quoting, latest: Quote, previous: Quote, language: DeliveryLanguage): { text: string; direction: Direction } | null {
  const percent = percentChange(latest, previous);
  if (percent === null) return null;
  // A change that rounds to nothing at the price's decimals is no change.
  const delta = priceValue(latest.value - previous.value, quoting);
  if (delta === 0) return { text: `▬ ${STEADY[language]}`, direction: 'flat' };
  const up = delta > 0;
  // The arrow says which way; the per cent needs no sign of its own.
  return { text: `${up ? '▲' : '▼'}${formatPrice(Math.abs(delta), quoting)} (${formatPercentSize(percent)})`, direction: up ? 'up' : 'down' };
}

/**
 * The one place a price line's words and numbers are formed (every delivery message uses it).
 * `today` is the day the message is for: a price of another year says its year.
 */
export function quoteLine({ instrument, latest, previous }: PriceQuote, language: DeliveryLanguage, today: IsoDate = latest.date): QuoteLine {
  const change = previous ? changeText(instrument.basis, latest, previous, language) : null;
  return {
    name: priceName(instrument, language),
    price: priceText(instrument.basis, latest.value, language),
    change: change?.text ?? null,
    direction: change?.direction ?? null,
    asOf: shortDay(latest.date, language, today),
    date: latest.date,
  };
}
