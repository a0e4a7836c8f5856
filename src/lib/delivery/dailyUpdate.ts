/**
 * The daily update's words, for WhatsApp and e-mail, in English or Hindi: a header with the day,
 * then the prices grouped (feedstocks and the rupee; the Indian market; CIF / international), each
 * group's heading with the day of its prices, one line per price (name in bold, price with unit,
 * ▲/▼ change and per cent; its own day when not the group's), and one "More" link. Each line's
 * words come from `quoteLine`.
 *
 * On WhatsApp a business-initiated update is a template with one parameter per line (parameters
 * cannot hold line breaks, see whatsappTemplates.ts): the lines that fit in MAX_DAILY_LINES and
 * in 1,024 characters filled in, the rest counted on a "+N more" line. Inside the 24-hour service
 * window the same update goes as free text, with a blank line between groups.
 */
import type { IsoDate } from '../dates.ts';
import type { Quote } from './alerts.ts';
import { fullDay } from './dateWords.ts';
import type { Instrument } from './instruments.ts';
import type { DeliveryLanguage } from './language.ts';
import { changeText, priceName, priceText, quoteLine, type QuoteLine } from './quoteLine.ts';
import { shortDay } from './dateWords.ts';
import { GRADE_HI } from './vocabulary.ts';
import { findGrade } from '../catalog.ts';
import { LIST_PRICE_BASIS } from '../producerPrices.ts';
import type { Producer } from './producers.ts';
import { dailyUpdateTemplate, MAX_DAILY_LINES, renderTemplate, TEMPLATE_BODY_MAX, TEXT_BODY_MAX, type WhatsAppTemplate } from './whatsappTemplates.ts';

/** One price of a subscriber's update: its quote, and its screen's absolute link when their plan opens it. */
export interface DailyPrice {
  readonly instrument: Instrument;
  readonly latest: Quote | null;
  readonly previous: Quote | null;
  readonly screen: string | null;
}

/**
 * A producer's list-price revision since the last update (src/lib/producerPrices.ts computes it):
 * the group "Producer revisions" after the prices, for readers whose plan opens the revisions.
 */
export interface DailyRevision {
  readonly producer: Producer;
  /** Catalog grade key (`ppRaffia`). */
  readonly grade: string;
  /** "ex-works Jamnagar". */
  readonly place: string;
  /** The new list and the one it revises (effective dates, ₹/kg). */
  readonly latest: Quote;
  readonly previous: Quote;
  /** The revisions screen's absolute link. */
  readonly screen: string;
}

export type DailyGroupKey = 'feedstocks' | 'india' | 'international' | 'producers';
const GROUP_ORDER: readonly DailyGroupKey[] = ['feedstocks', 'india', 'international'];

const GROUP_WORDS: Readonly<Record<DailyGroupKey, { readonly mark: string; readonly en: string; readonly hi: string; readonly linkEn: string; readonly linkHi: string }>> = {
  feedstocks: { mark: '🛢', en: 'Feedstocks', hi: 'फ़ीडस्टॉक', linkEn: 'All feedstock prices', linkHi: 'सभी फ़ीडस्टॉक भाव' },
  india: { mark: '🇮🇳', en: 'Indian market', hi: 'भारतीय बाज़ार', linkEn: 'All Indian prices', linkHi: 'सभी भारतीय भाव' },
  international: { mark: '🚢', en: 'CIF / international', hi: 'CIF / अंतरराष्ट्रीय', linkEn: 'All CIF prices', linkHi: 'सभी CIF भाव' },
  producers: { mark: '🏭', en: 'Producer list-price revisions', hi: 'उत्पादक लिस्ट प्राइस बदलाव', linkEn: 'All revisions', linkHi: 'सभी बदलाव' },
};


/** A revision as a price line: "Reliance (RIL) PP Raffia ex-works Jamnagar" ₹106.00/kg ▲1.50 (1.44%) · 24 Nov. */
function revisionLine(r: DailyRevision, language: DeliveryLanguage, today: IsoDate): QuoteLine {
  const hi = language === 'hi';
  const ref = findGrade(r.grade);
  const grade = ref ? `${ref.polymer.slug} ${hi ? (GRADE_HI[ref.grade.name] ?? ref.grade.name) : ref.grade.name}` : r.grade;
  const change = changeText(LIST_PRICE_BASIS, r.latest, r.previous, language);
  return {
    name: `${hi ? r.producer.nameHi : r.producer.name} ${grade} ${r.place}`,
    price: priceText(LIST_PRICE_BASIS, r.latest.value, language),
    change: change?.text ?? null,
    direction: change?.direction ?? null,
    asOf: shortDay(r.latest.date, language, today),
    date: r.latest.date,
  };
}

/** The most revisions one update lists (the rest are on the revisions screen). */
export const MAX_DAILY_REVISIONS = 6;

/** The revisions group, or none. */
function revisionGroup(revisions: readonly DailyRevision[], language: DeliveryLanguage, day: IsoDate): DailyGroup[] {
  if (revisions.length === 0) return [];
  const words = GROUP_WORDS.producers;
  const rows = revisions.slice(0, MAX_DAILY_REVISIONS).map((r) => {
    const line = revisionLine(r, language, day);
    return { instrument: null, line, name: line.name, otherDay: line.asOf };
  });
  return [{ key: 'producers', title: language === 'hi' ? words.hi : words.en, day: '', link: { text: language === 'hi' ? words.linkHi : words.linkEn, href: revisions[0]!.screen }, rows }];
}

/** Feedstocks and the rupee; the Indian market (city sheets, Mumbai ex-works); CIF Nhava Sheva. */
export function groupOf(instrument: Instrument): DailyGroupKey {
  if (instrument.source.kind === 'city') return 'india';
  if (instrument.id.startsWith('historical.')) return instrument.id.endsWith('.mumbai') ? 'india' : 'international';
  return 'feedstocks';
}

export interface DailyRow {
  /** The price's instrument; null for a producer's revision. */
  readonly instrument: Instrument | null;
  /** Null: no price yet. */
  readonly line: QuoteLine | null;
  readonly name: string;
  /** Its day when it is not its group's ("" otherwise): on WhatsApp the group's heading says the day. */
  readonly otherDay: string;
}

export interface DailyGroup {
  readonly key: DailyGroupKey;
  readonly title: string;
  /** The day most of the group's prices are for ("20 Nov"), or "" without any price. */
  readonly day: string;
  /** The group's screen (the first of its prices the reader may open), or null. */
  readonly link: { readonly text: string; readonly href: string } | null;
  readonly rows: readonly DailyRow[];
}

const NO_PRICE: Readonly<Record<DeliveryLanguage, string>> = { en: 'no price yet', hi: 'अभी भाव नहीं' };

/** The prices grouped, in group order and, within a group, in the order chosen; the producers' revisions last. */
export function dailyGroups(prices: readonly DailyPrice[], language: DeliveryLanguage, day: IsoDate, revisions: readonly DailyRevision[] = []): DailyGroup[] {
  return [...priceGroups(prices, language, day), ...revisionGroup(revisions, language, day)];
}

function priceGroups(prices: readonly DailyPrice[], language: DeliveryLanguage, day: IsoDate): DailyGroup[] {
  const lines = prices.map((p) => ({ price: p, line: p.latest ? quoteLine({ instrument: p.instrument, latest: p.latest, previous: p.previous }, language, day) : null }));
  return GROUP_ORDER.flatMap((key) => {
    const members = lines.filter(({ price }) => groupOf(price.instrument) === key);
    if (members.length === 0) return [];
    const words = GROUP_WORDS[key];
    const href = members.find(({ price }) => price.screen)?.price.screen ?? null;
    // The group's day: the one most of its prices are for (the newest of those, on a tie).
    const counts = new Map<string, number>();
    for (const { line } of members) if (line) counts.set(line.asOf, (counts.get(line.asOf) ?? 0) + 1);
    const groupDay = [...counts.entries()].toSorted((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    return [
      {
        key,
        title: language === 'hi' ? words.hi : words.en,
        day: groupDay,
        link: href ? { text: language === 'hi' ? words.linkHi : words.linkEn, href } : null,
        rows: members.map(({ price, line }) => ({
          instrument: price.instrument,
          line,
          name: line?.name ?? priceName(price.instrument, language),
          otherDay: line && line.asOf !== groupDay ? line.asOf : '',
        })),
      },
    ];
  });
}

/** A group's heading line on WhatsApp, with the day of its prices: "🇮🇳 *Indian market* · 20 Nov". */
const headingLine = (group: DailyGroup): string => `${GROUP_WORDS[group.key].mark} *${group.title}*${group.day ? ` · ${group.day}` : ''}`;

/** One price's line on WhatsApp: "*PP Raffia Mumbai* ₹104.50/kg ▲0.50 (0.48%)", with " · 13 Nov" when its day is not its group's. */
export function whatsappPriceLine(row: DailyRow, language: DeliveryLanguage): string {
  if (!row.line) return `*${row.name}* ${NO_PRICE[language]}`;
  const parts = [`*${row.line.name}*`, row.line.price, ...(row.line.change ? [row.line.change] : [])];
  return `${parts.join(' ')}${row.otherDay ? ` · ${row.otherDay}` : ''}`;
}

const MORE_LINE: Readonly<Record<DeliveryLanguage, (count: number) => string>> = {
  en: (n) => `+${n} more ${n === 1 ? 'price' : 'prices'} at the link below`,
  hi: (n) => `+${n} और भाव नीचे दिए लिंक पर`,
};

type Line = { readonly kind: 'heading'; readonly text: string } | { readonly kind: 'price'; readonly text: string };

const linesOf = (groups: readonly DailyGroup[], language: DeliveryLanguage): Line[] =>
  groups.flatMap((group) => [{ kind: 'heading', text: headingLine(group) } as const, ...group.rows.map((row) => ({ kind: 'price', text: whatsappPriceLine(row, language) }) as const)]);

/**
 * The first lines that fit `fits` (a heading is never left without a price under it), and a
 * "+N more" line for the prices left out.
 */
function fitLines(lines: readonly Line[], language: DeliveryLanguage, fits: (lines: readonly string[]) => boolean): string[] {
  const prices = lines.filter((l) => l.kind === 'price').length;
  if (fits(lines.map((l) => l.text))) return lines.map((l) => l.text);
  for (let keep = lines.length - 1; keep > 0; keep--) {
    const kept = lines.slice(0, keep);
    while (kept.length > 0 && kept.at(-1)!.kind === 'heading') kept.pop();
    const left = prices - kept.filter((l) => l.kind === 'price').length;
    const candidate = [...kept.map((l) => l.text), MORE_LINE[language](left)];
    if (kept.length > 0 && fits(candidate)) return candidate;
  }
  return [MORE_LINE[language](prices)];
}

export interface WhatsAppDailyUpdate {
  /** The update as free text (inside the 24-hour service window). */
  readonly text: string;
  /** The update as a template (outside it) and its parameters. */
  readonly template: WhatsAppTemplate;
  readonly params: readonly string[];
}

const FREE_TEXT_WORDS: Readonly<Record<DeliveryLanguage, { readonly title: string; readonly more: string; readonly stop: string }>> = {
  en: { title: 'PolyIndex prices', more: 'More', stop: 'Reply STOP to end these updates.' },
  hi: { title: 'PolyIndex भाव', more: 'और भाव', stop: 'ये अपडेट बंद करने के लिए STOP भेजें।' },
};

/** The daily update on WhatsApp: the template (with parameters) and the same update as free text. */
export function whatsappDailyUpdate(input: { readonly day: IsoDate; readonly language: DeliveryLanguage; readonly prices: readonly DailyPrice[]; readonly revisions?: readonly DailyRevision[]; readonly moreLink: string }): WhatsAppDailyUpdate {
  const { day, language, moreLink } = input;
  const groups = dailyGroups(input.prices, language, day, input.revisions);
  const lines = linesOf(groups, language);
  const header = fullDay(day, language);

  const templateFits = (texts: readonly string[]) => texts.length <= MAX_DAILY_LINES && renderTemplate(dailyUpdateTemplate(language, texts.length), [header, ...texts, moreLink]).length <= TEMPLATE_BODY_MAX;
  const templateLines = fitLines(lines, language, templateFits);
  const template = dailyUpdateTemplate(language, templateLines.length);

  const words = FREE_TEXT_WORDS[language];
  const freeText = (texts: readonly string[]) => {
    // A blank line before each group after the first.
    const body = texts.map((text, i) => (i > 0 && lines.some((l) => l.kind === 'heading' && l.text === text) ? `\n${text}` : text)).join('\n');
    return `*${words.title} · ${header}*\n\n${body}\n\n${words.more}: ${moreLink}\n${words.stop}`;
  };
  const textLines = fitLines(lines, language, (texts) => freeText(texts).length <= TEXT_BODY_MAX);
  return { text: freeText(textLines), template, params: [header, ...templateLines, moreLink] };
}

// ---- e-mail ---------------------------------------------------------------------------------

export interface MailDailyUpdate {
  readonly language: DeliveryLanguage;
  readonly subject: string;
  readonly heading: string;
  readonly columns: readonly [name: string, price: string, change: string, asOf: string];
  readonly groups: readonly DailyGroup[];
  readonly noPrice: string;
  readonly settings: { readonly text: string; readonly href: string };
  readonly unsubscribe: string;
  readonly footer: string;
}

const MAIL_WORDS: Readonly<Record<DeliveryLanguage, Omit<MailDailyUpdate, 'groups' | 'settings' | 'subject' | 'heading' | 'language'> & { readonly subject: string; readonly heading: string; readonly settings: string }>> = {
  en: {
    subject: 'PolyIndex daily prices',
    heading: 'Your daily prices',
    columns: ['Product', 'Price', 'Change', 'As of'],
    noPrice: NO_PRICE.en,
    settings: 'Change what you receive',
    unsubscribe: 'Unsubscribe from the daily update',
    footer: 'You receive this e-mail because you asked for the PolyIndex daily update on /alerts.',
  },
  hi: {
    subject: 'PolyIndex दैनिक भाव',
    heading: 'आपके आज के भाव',
    columns: ['उत्पाद', 'भाव', 'बदलाव', 'तारीख़'],
    noPrice: NO_PRICE.hi,
    settings: 'क्या मिले, यह बदलें',
    unsubscribe: 'दैनिक अपडेट बंद करें',
    footer: 'यह ई-मेल आपको इसलिए मिला क्योंकि आपने /alerts पर PolyIndex का दैनिक अपडेट चुना है।',
  },
};

/** The daily update by e-mail: a table per group (name | price | change | as of) with the group's link. */
export function mailDailyUpdate(input: { readonly day: IsoDate; readonly language: DeliveryLanguage; readonly prices: readonly DailyPrice[]; readonly revisions?: readonly DailyRevision[]; readonly settingsLink: string }): MailDailyUpdate {
  const words = MAIL_WORDS[input.language];
  const day = fullDay(input.day, input.language);
  return {
    ...words,
    language: input.language,
    subject: `${words.subject} · ${day}`,
    heading: `${words.heading} · ${day}`,
    groups: dailyGroups(input.prices, input.language, input.day, input.revisions),
    settings: { text: words.settings, href: input.settingsLink },
  };
}

/** A row as one line of the plain-text e-mail: "PP Raffia Mumbai: ₹104.50/kg ▲0.50 (0.48%) · 24 Nov". */
export function plainRow(row: DailyRow, language: DeliveryLanguage): string {
  if (!row.line) return `${row.name}: ${NO_PRICE[language]}`;
  return `${row.line.name}: ${[row.line.price, ...(row.line.change ? [row.line.change] : [])].join(' ')} · ${row.line.asOf}`;
}
