/**
 * Revision alerts (issue 20): "tell me of any revision by a producer on PP", per product and
 * optionally per producer. An alert of kind `revision` watches a target (`revisions.PP`,
 * `revisions.PP.reliance`) instead of a price. What fires it is an announcement: a producer's
 * new lists of one product from one effective date that revise the previous lists (the change
 * computed by src/lib/producerPrices.ts, never typed). This module decides which announcements an
 * alert fires for and words the message in English and Hindi. Pure: no I/O.
 */
import { addDays, isoDateOf, type IsoDate } from '../dates.ts';
import { findProducer, LISTED_PRODUCTS, LIST_PRICE_BASIS, listingOf, listPlace, PRODUCER_LISTINGS, RATE_REVISION_PATH, revisionsOf, type ProducerPriceRecord, type Revision } from '../producerPrices.ts';
import { findGrade } from '../catalog.ts';
import { shortDay } from './dateWords.ts';
import type { DeliveryLanguage } from './language.ts';
import { changeText, priceText } from './quoteLine.ts';
import { GRADE_HI } from './vocabulary.ts';

/** What a revision alert watches: a product's revisions, by every producer or by one. */
export interface RevisionTarget {
  /** `PP`, `HDPE` …: a product some producer lists. */
  readonly product: string;
  /** A producer id (`reliance`), or null for any producer. */
  readonly producer: string | null;
}

const PREFIX = 'revisions.';

/** The id a revision alert keeps in its `instrument` field (the index alerts are found by). */
export const revisionTargetId = ({ product, producer }: RevisionTarget): string => `${PREFIX}${product}${producer ? `.${producer}` : ''}`;

/** The producers that list a product, in the listings' order. */
export const producersOfProduct = (product: string): string[] =>
  PRODUCER_LISTINGS.filter((listing) => listing.grades.some((grade) => findGrade(grade)?.polymer.slug === product)).map((listing) => listing.producer);

/** What /alerts offers a revision alert: each listed product with the producers that list it. */
export const revisionChoices = (): { product: string; producers: { id: string; name: string }[] }[] =>
  LISTED_PRODUCTS.map((product) => ({ product, producers: producersOfProduct(product).map((id) => ({ id, name: findProducer(id)!.name })) }));

/** Why a target cannot be watched, naming the field, or null: a listed product, and a producer that lists it. */
export function revisionTargetProblem(target: RevisionTarget): { readonly field: 'product' | 'producer'; readonly message: string } | null {
  if (!LISTED_PRODUCTS.includes(target.product)) return { field: 'product', message: `Producers list no "${target.product.slice(0, 20)}": choose ${LISTED_PRODUCTS.join(', ')}.` };
  if (target.producer === null) return null;
  if (!listingOf(target.producer)) return { field: 'producer', message: `"${target.producer.slice(0, 30)}" is not a producer PolyIndex lists.` };
  if (!producersOfProduct(target.product).includes(target.producer)) return { field: 'producer', message: `${findProducer(target.producer)!.name} lists no ${target.product}.` };
  return null;
}

/** The target an alert's `instrument` names, or null when it is not a revision target. */
export function readRevisionTarget(id: string): RevisionTarget | null {
  if (!id.startsWith(PREFIX)) return null;
  const [product = '', producer = null, ...rest] = id.slice(PREFIX.length).split('.');
  if (rest.length > 0) return null;
  const target = { product, producer };
  return revisionTargetProblem(target) ? null : target;
}

/** "PP revisions by any producer" / "Reliance (RIL) PP revisions" (the alert's label on /alerts). */
export function revisionTargetLabel({ product, producer }: RevisionTarget, language: DeliveryLanguage = 'en'): string {
  const who = producer ? findProducer(producer) : undefined;
  if (language === 'hi') return who ? `${who.nameHi} के ${product} भाव में बदलाव` : `किसी भी उत्पादक के ${product} भाव में बदलाव`;
  return who ? `${who.name} ${product} list-price revisions` : `${product} list-price revisions by any producer`;
}

/** How old an effective date may be for its revision to fire an alert (older ones are history the desk catches up on). */
export const REVISION_ALERT_DAYS = 7;

/** One line's revision in an announcement: the new list against the one it revises. */
export interface AnnouncedLine {
  /** The list line's id (`reliance.ppRaffia.jamnagar`). */
  readonly line: string;
  /** The new list, ₹/kg (GST extra). */
  readonly value: number;
  readonly previous: { readonly date: IsoDate; readonly value: number };
  /** When the desk entered it (ISO instant). */
  readonly enteredAt: string;
}

/** A producer's revision of a product from one effective date: what a revision alert fires for, once. */
export interface Announcement {
  readonly producer: string;
  readonly product: string;
  readonly effective: IsoDate;
  readonly lines: readonly AnnouncedLine[];
}

/** The key of an announcement (in a delivery's ref: `{alertId}#{key}`). */
export const announcementKey = (a: Pick<Announcement, 'producer' | 'product' | 'effective'>): string => `${a.producer}.${a.product}.${a.effective}`;

/**
 * The announcements among the records at `now`: each line's list in force (none later on its
 * line) that changes the previous list (a re-list at the same price is no revision), effective
 * within the last REVISION_ALERT_DAYS, entered by the desk (not `demoEnteredBy`, the seed),
 * grouped by producer, product and effective date: newest date first, each in list-line order.
 */
export function announcementsOf(records: readonly ProducerPriceRecord[], now: Date, demoEnteredBy: string): Announcement[] {
  const since = addDays(isoDateOf(now), -REVISION_ALERT_DAYS);
  const current = new Set<string>();
  const fresh: Revision[] = [];
  for (const revision of revisionsOf(records)) {
    // revisionsOf is newest first: a line's first revision seen is its list in force.
    if (current.has(revision.line.id)) continue;
    current.add(revision.line.id);
    const { record, previous, change } = revision;
    if (!previous || change === null || change === 0 || record.effective < since || record.enteredBy === demoEnteredBy) continue;
    fresh.push(revision);
  }
  const groups = new Map<string, Announcement>();
  for (const r of fresh) {
    const key = announcementKey({ producer: r.line.producer.id, product: r.line.product, effective: r.record.effective });
    const line: AnnouncedLine = { line: r.line.id, value: r.record.value, previous: { date: r.previous!.effective, value: r.previous!.value }, enteredAt: r.record.enteredAt };
    const group = groups.get(key);
    groups.set(key, group ? { ...group, lines: [...group.lines, line] } : { producer: r.line.producer.id, product: r.line.product, effective: r.record.effective, lines: [line] });
  }
  return [...groups.values()];
}

/** Whether a target watches an announcement. */
export const watches = (target: RevisionTarget, a: Announcement): boolean => target.product === a.product && (target.producer === null || target.producer === a.producer);

/**
 * What an alert set at `alertCreatedAt` fires for of an announcement: its lines entered after the
 * alert was set (an alert does not announce what was known when it was set), or null for none.
 */
export function firingOf(a: Announcement, alertCreatedAt: string): Announcement | null {
  const lines = a.lines.filter((l) => l.enteredAt >= alertCreatedAt);
  return lines.length > 0 ? { ...a, lines } : null;
}

// ---- the message ------------------------------------------------------------------------


/** The most lines one message lists (a producer revises up to ~9 lines of a product at once). */
export const MAX_ALERT_LINES = 6;

/** "PP Raffia ex-works Jamnagar ₹106.00/kg ▲1.50 (1.44%)". */
export function announcedLineText(l: AnnouncedLine, effective: IsoDate, language: DeliveryLanguage): string {
  const [producer = '', grade = '', location = ''] = l.line.split('.');
  const ref = findGrade(grade);
  const place = listingOf(producer)?.locations.find((loc) => loc.key === location);
  const hi = language === 'hi';
  const gradeName = ref ? `${ref.polymer.slug} ${hi ? (GRADE_HI[ref.grade.name] ?? ref.grade.name) : ref.grade.name}` : grade;
  const change = changeText(LIST_PRICE_BASIS, { date: effective, value: l.value }, l.previous, language);
  return [gradeName, place ? listPlace(place) : location, priceText(LIST_PRICE_BASIS, l.value, language), change?.text ?? ''].filter(Boolean).join(' ');
}

/** The rateRevision screen filtered to the announcement's producer and product (site-relative). */
export const revisionScreenOf = (a: Pick<Announcement, 'producer' | 'product'>): string => `${RATE_REVISION_PATH}?producer=${encodeURIComponent(a.producer)}&product=${encodeURIComponent(a.product)}`;

export interface RevisionAlertWords {
  /** "Producer revision: Reliance (RIL) revised PP from 24 Nov" (the mail's subject and heading). */
  readonly headline: string;
  /** What happened, for the alert template's first parameter: "Reliance (RIL) revised PP list prices from 24 Nov". */
  readonly event: string;
  /** One line per revised list, at most MAX_ALERT_LINES, then "+N more". */
  readonly lines: readonly string[];
}

export function revisionAlertWords(a: Announcement, language: DeliveryLanguage, today: IsoDate): RevisionAlertWords {
  const producer = findProducer(a.producer);
  const day = shortDay(a.effective, language, today);
  const rest = a.lines.length - MAX_ALERT_LINES;
  const lines = [
    ...a.lines.slice(0, MAX_ALERT_LINES).map((l) => announcedLineText(l, a.effective, language)),
    ...(rest > 0 ? [language === 'hi' ? `+${rest} और` : `+${rest} more`] : []),
  ];
  if (language === 'hi') {
    const name = producer?.nameHi ?? a.producer;
    return { headline: `उत्पादक रेट बदलाव: ${name} ने ${a.product} के भाव ${day} से बदले`, event: `${name} ने ${a.product} लिस्ट प्राइस ${day} से बदले`, lines };
  }
  const name = producer?.name ?? a.producer;
  return { headline: `Producer revision: ${name} revised ${a.product} from ${day}`, event: `${name} revised ${a.product} list prices from ${day}`, lines };
}

/** The alert on WhatsApp as free text (inside the service window). */
export const revisionAlertText = (words: RevisionAlertWords, link: string, language: DeliveryLanguage): string =>
  `*${words.headline}*\n${words.lines.map((l) => `• ${l}`).join('\n')}\n${link}\n${language === 'hi' ? 'अलर्ट बंद करने के लिए STOP भेजें।' : 'Reply STOP to end alerts.'}`;

/** The lines as one template parameter (parameters hold no line breaks): "PP Raffia … ▲1.50 (1.44%); PP Injection Moulding …". */
export const revisionAlertParam = (words: RevisionAlertWords): string => words.lines.join('; ');
