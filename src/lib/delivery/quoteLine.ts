/**
 * How one price reads in a delivery message, in English or Hindi: its short name, the price with
 * its unit as traders write it (₹104.50/kg, $612/MT, $73.40/bbl; ₹104.50/किलो, $612/टन), the
 * change on the previous price (▲0.50 (0.48%), ▼…, ▬ steady) and the day it is for. Every
 * message (the daily update on WhatsApp and by e-mail, alerts, the bot) forms its price lines
 * with `quoteLine` and nothing else, so a price's label, basis and number formats can change in
 * this one place. Numbers use Indian digit grouping (1,23,456.50) in both languages.
 */
import { findCity, findFeedstock, findGrade, findSubMarket } from '../catalog.ts';
import type { PriceUnit as Unit } from '../units.ts';
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
  /** "₹104.50/kg", "$612/t", "₹104.50/किलो". */
  readonly price: string;
  /** "▲0.50 (0.48%)", "▼2.5 (0.41%)", "▬ steady"; null without a previous price. */
  readonly change: string | null;
  readonly direction: Direction | null;
  /** The price's day: "24 Nov" ("24 Nov 2025" in another year than `today`). */
  readonly asOf: string;
  readonly date: IsoDate;
}

/** A unit's price as traders write it: the currency sign before, the quantity after. */
const UNIT_FORMS: Readonly<Record<Unit, { readonly sign: string; readonly en: string; readonly hi: string; readonly decimals: 'fixed' | 'trim' }>> = {
  '₹/kg': { sign: '₹', en: '/kg', hi: '/किलो', decimals: 'fixed' },
  'US$/bbl': { sign: '$', en: '/bbl', hi: '/बैरल', decimals: 'fixed' },
  'US$/t': { sign: '$', en: '/t', hi: '/टन', decimals: 'trim' },
  'RMB/t': { sign: 'RMB ', en: '/t', hi: '/टन', decimals: 'trim' },
  // The rupee per US dollar: "₹84.32" says it.
  '₹/US$': { sign: '₹', en: '', hi: '', decimals: 'fixed' },
};

const formats = {
  fixed: new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  trim: new Intl.NumberFormat('en-IN', { minimumFractionDigits: 0, maximumFractionDigits: 2 }),
  percent: new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
};

/** The number alone, Indian grouping: 104.50, 1,23,456.50, 612, 612.5. */
export const amountText = (unit: Unit, value: number): string => formats[UNIT_FORMS[unit].decimals].format(value);

/** "₹104.50/kg", "$612/t", "RMB 7,450/टन", "₹84.32". */
export function priceText(unit: Unit, value: number, language: DeliveryLanguage): string {
  const form = UNIT_FORMS[unit];
  return `${value < 0 ? '−' : ''}${form.sign}${amountText(unit, Math.abs(value))}${form[language]}`;
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

/** "▲0.50 (0.48%)", "▼2.5 (0.41%)", "▬ steady". */
export function changeText(unit: Unit, latest: Quote, previous: Quote, language: DeliveryLanguage): { text: string; direction: Direction } | null {
  const percent = percentChange(latest, previous);
  if (percent === null) return null;
  const delta = latest.value - previous.value;
  // A change that rounds to nothing at the unit's precision is no change.
  if (amountText(unit, Math.abs(delta)) === amountText(unit, 0)) return { text: `▬ ${STEADY[language]}`, direction: 'flat' };
  const up = delta > 0;
  // The arrow says which way; the per cent needs no sign of its own.
  return { text: `${up ? '▲' : '▼'}${amountText(unit, Math.abs(delta))} (${formats.percent.format(Math.abs(percent))}%)`, direction: up ? 'up' : 'down' };
}

/**
 * The one place a price line's words and numbers are formed (every delivery message uses it).
 * `today` is the day the message is for: a price of another year says its year.
 */
export function quoteLine({ instrument, latest, previous }: PriceQuote, language: DeliveryLanguage, today: IsoDate = latest.date): QuoteLine {
  const change = previous ? changeText(instrument.unit, latest, previous, language) : null;
  return {
    name: priceName(instrument, language),
    price: priceText(instrument.unit, latest.value, language),
    change: change?.text ?? null,
    direction: change?.direction ?? null,
    asOf: shortDay(latest.date, language, today),
    date: latest.date,
  };
}
