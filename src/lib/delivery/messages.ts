/**
 * The words of every delivery message, for WhatsApp and e-mail alike: a price line (latest
 * price, change on the previous price, date), the daily update, an alert, the bot's answers,
 * and the WhatsApp templates that carry business-initiated messages (registered in WhatsApp
 * Manager under these names; docs/delivery.md). Template parameters may not hold line breaks,
 * so every parameter here is one line.
 */
import { toSlashedDate } from '../dates.ts';
import type { Unit } from '../catalog.ts';
import { percentChange, type AlertKind, type Quote } from './alerts.ts';
import type { Instrument } from './instruments.ts';

const UNIT_TEXT: Record<Unit, string> = {
  'USD/bbl': 'US$/bbl',
  'US$/MT': 'US$/t',
  'US$/Mt': 'US$/t',
  'RMB/Mt': 'RMB/t',
  'Rs/Kg': 'Rs/kg',
  'INR/USD': 'Rs per US$',
};

const number = (value: number): string => value.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signed = (value: number): string => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${number(Math.abs(value))}`;

export const priceText = (unit: Unit, value: number): string => `${number(value)} ${UNIT_TEXT[unit]}`;

export interface PriceQuote {
  readonly instrument: Instrument;
  readonly latest: Quote;
  readonly previous: Quote | null;
}

/** "PP Raffia · Mumbai: 104.50 Rs/kg on 20/11/2026 (+0.50, +0.48% on 13/11/2026)" */
export function priceLine({ instrument, latest, previous }: PriceQuote): string {
  const base = `${instrument.label}: ${priceText(instrument.unit, latest.value)} on ${toSlashedDate(latest.date)}`;
  const change = percentChange(latest, previous);
  if (!previous || change === null) return base;
  return `${base} (${signed(latest.value - previous.value)}, ${signed(change)}% on ${toSlashedDate(previous.date)})`;
}

/** An instrument without any price yet. */
export const noPriceLine = (instrument: Instrument): string => `${instrument.label}: no price yet`;

export interface AlertFacts {
  readonly kind: AlertKind;
  readonly value: number;
}

export function alertCondition(instrument: Instrument, { kind, value }: AlertFacts): string {
  if (kind === 'move') return `moves ${number(value)}% or more in a day`;
  return `${kind === 'above' ? 'reaches or passes' : 'falls to or below'} ${priceText(instrument.unit, value)}`;
}

export const alertHeadline = (instrument: Instrument, alert: AlertFacts): string => `Price alert: ${instrument.label} ${alertCondition(instrument, alert)}`;

/** Links are absolute: a message is read outside the site. */
export const absoluteLink = (siteUrl: string, path: string): string => new URL(path, siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`).toString();

// ---- WhatsApp templates (business-initiated messages) ------------------------------------

export interface WhatsAppTemplate {
  /** The template's name in WhatsApp Manager. */
  readonly name: string;
  readonly language: string;
  readonly category: 'UTILITY' | 'AUTHENTICATION';
  /** The approved body, `{{n}}` for the n-th parameter. */
  readonly body: string;
}

export const WHATSAPP_TEMPLATES = {
  dailyUpdate: {
    name: 'polyindex_daily_update',
    language: 'en',
    category: 'UTILITY',
    body: 'PolyIndex prices for {{1}}: {{2}}. More: {{3}} Reply STOP to end these updates.',
  },
  priceAlert: {
    name: 'polyindex_price_alert',
    language: 'en',
    category: 'UTILITY',
    body: '{{1}}. Now: {{2}}. See {{3}} Reply STOP to end alerts.',
  },
  verificationCode: {
    name: 'polyindex_verification_code',
    language: 'en',
    category: 'AUTHENTICATION',
    body: '{{1}} is your PolyIndex verification code. It expires in 10 minutes.',
  },
} as const satisfies Record<string, WhatsAppTemplate>;

export type TemplateKey = keyof typeof WHATSAPP_TEMPLATES;

/** A template parameter: one line, no tabs, at most four spaces in a row (WhatsApp's rules), bounded. */
export const templateParam = (text: string): string =>
  // eslint-disable-next-line no-control-regex
  text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/ {4,}/g, '   ').trim().slice(0, 1000);

/** The body a template renders to with these parameters (what the phone shows). */
export const renderTemplate = (template: WhatsAppTemplate, params: readonly string[]): string =>
  template.body.replace(/\{\{(\d+)\}\}/g, (_, n: string) => params[Number(n) - 1] ?? '');

/** A price of a daily update: its line (priceLine / noPriceLine) and its screen's absolute link, when the plan opens it. */
export interface DailyUpdatePrice {
  readonly line: string;
  readonly screen: string | null;
}

/**
 * The daily update on WhatsApp, for one day: `text` inside the 24-hour service window, else the
 * template with `params` (one bounded line: the prices without their links, and "More:" the
 * first price's screen), which reads as `shown` on the phone. The job sends it; /alerts shows
 * `shown` as the preview of the next update.
 */
export function dailyUpdateWhatsApp(day: string, prices: readonly DailyUpdatePrice[], settingsLink: string): { readonly text: string; readonly params: readonly string[]; readonly shown: string } {
  const body = prices.map(({ line, screen }) => (screen ? `${line}\n${screen}` : line)).join('\n');
  const text = `PolyIndex prices for ${toSlashedDate(day)}:\n${body}\nChange what you receive: ${settingsLink}\nReply STOP to end these updates.`;
  const more = prices.find((p) => p.screen)?.screen ?? settingsLink;
  const params = [toSlashedDate(day), prices.map((p) => p.line).join(' · '), more];
  return { text, params, shown: renderTemplate(WHATSAPP_TEMPLATES.dailyUpdate, params.map(templateParam)) };
}
