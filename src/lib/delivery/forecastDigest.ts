/**
 * The weekly forecast digest's words, for WhatsApp and e-mail, in English or Hindi (an option on
 * /alerts; the job is src/server/delivery/forecastDigest.ts). Per product the reader follows: the
 * desk's open call of each horizon (direction, range, end date) beside the statistical baseline
 * from the latest price, the desk's last scored calls beside their baseline twins, and the
 * twelve-month record (inside the range, direction right), desk against baseline.
 *
 * Who sees what, as on the pages: open calls and the baseline's range are for plans that open the
 * outlook pages (`full`); every other reader gets the record and the scored calls as changes from
 * each call's base (the public track record's terms: no price level), and a line saying which
 * plans have the open calls. Only matured calls (end date before today) are ever counted or shown
 * as scored.
 *
 * On WhatsApp a business-initiated digest is a template with one parameter per line (parameters
 * cannot hold line breaks), like the daily update: whole products while they fit in
 * MAX_DIGEST_LINES lines and 1,024 characters filled in, then "+N more products"; inside the
 * 24-hour service window the same digest goes as free text.
 */
import type { IsoDate } from '../dates.ts';
import { changeRangeText, directionArrow, rangeDigits, rangeText, sharePct, signedPct } from '../forecasts/format.ts';
import { horizons, isBaseline, isDesk, pctFromBase, type Direction, type Forecast, type Horizon } from '../forecasts/model.ts';
import { scoreboardOf, twinKey, type Scoreboard } from '../forecasts/scoreboard.ts';
import { isMatured, type Score } from '../forecasts/scoring.ts';
import { latestBaseline, latestOpenDeskCall } from '../forecasts/view.ts';
import { formatNumber } from '../numbers.ts';
import { pricePredictionSeriesIds } from '../forecasts/coverage.ts';
import { fullDay, shortDay } from './dateWords.ts';
import { forecastSeriesOf } from './forecastReply.ts';
import { findInstrument } from './instruments.ts';
import type { DeliveryLanguage } from './language.ts';
import { forecastDigestTemplate, MAX_DIGEST_LINES, renderTemplate, TEMPLATE_BODY_MAX, TEXT_BODY_MAX, type WhatsAppTemplate } from './whatsappTemplates.ts';

/** The most products one digest covers (the reader's first, in the order they chose their prices). */
export const MAX_DIGEST_PRODUCTS = 5;
/** The desk's scored calls a product shows by e-mail (WhatsApp: the latest one). */
export const MAX_SCORED_CALLS = 2;

/** One product of a digest, as the job reads it (src/server/delivery/forecastDigest.ts). */
export interface DigestProduct {
  /** "PP Raffia · Mumbai". */
  readonly label: string;
  /** "₹/kg". */
  readonly unit: string;
  /** Every forecast on the product's series and the scores (ForecastSource.forSeries). */
  readonly forecasts: readonly Forecast[];
  readonly scores: ReadonlyMap<string, Score>;
  /** The page to read more on: the outlook page for readers it opens, else the public track record; null: none. */
  readonly link: string | null;
}

export interface DigestInput {
  /** The Monday the digest is for (its delivery day). */
  readonly day: IsoDate;
  readonly language: DeliveryLanguage;
  readonly products: readonly DigestProduct[];
  /** Whether the reader's plan opens the outlook pages: open calls and price levels. */
  readonly openCalls: boolean;
  /** "Premium and Platinum": the plans with open calls (said to readers without them). */
  readonly openCallPlans: string;
  /** The message's one link ("More"), absolute. */
  readonly moreLink: string;
  /** /alerts, absolute (e-mail: "Change what you receive"). */
  readonly settingsLink: string;
}

/**
 * The series a reader's digest covers: the forecast series of the prices their daily update
 * carries (a city price: its city's ex-works series), in their order, at most MAX_DIGEST_PRODUCTS;
 * none of them forecast, the Mumbai ex-works grades of the price-prediction page.
 */
export function digestSeriesOf(dailyIds: readonly string[]): string[] {
  const followed = [...new Set(dailyIds.flatMap((id) => {
    const instrument = findInstrument(id);
    return instrument ? (forecastSeriesOf([instrument]) ?? []) : [];
  }))];
  return (followed.length > 0 ? followed : [...pricePredictionSeriesIds]).slice(0, MAX_DIGEST_PRODUCTS);
}

// ---- the model both messages are made from ---------------------------------------------------

/** A call as words: "▲ Up 104.5–107.0" (prices) or "▲ Up +1.0% to +3.5%" (changes). */
export interface CallWords {
  readonly call: string;
  /** "✓ in range, ✓ direction" for a scored call; "" for an open one. */
  readonly score: string;
  readonly tone: 'up' | 'down' | 'flat';
}

/** What the desk or the baseline said: the call ("▲ Up 104–107", a record's "61% · 56%") and, once scored, its score. */
export interface DigestCell {
  readonly call: string;
  /** "✓ in range, ✓ direction"; "" for an open call or a record. */
  readonly score: string;
}

/** A cell as one piece of text: "▲ Up 104–107: ✓ in range, ✓ direction". */
export const cellText = (cell: DigestCell): string => (cell.score ? `${cell.call}: ${cell.score}` : cell.call);

export interface DigestRow {
  readonly kind: 'open' | 'scored' | 'record';
  /** "1 week, to 4 Dec" · "Scored: 1 week, to 20 Nov · came 105.5" · "12 months, 48 calls (…)". */
  readonly label: string;
  readonly desk: DigestCell;
  readonly baseline: DigestCell;
  /** The calls the record counts (record rows). */
  readonly calls?: number;
}

export interface DigestSection {
  /** "PP Raffia · Mumbai · ₹/kg". */
  readonly title: string;
  readonly link: string | null;
  readonly rows: readonly DigestRow[];
}

interface Words {
  readonly title: string;
  readonly subject: string;
  readonly horizon: Readonly<Record<Horizon, string>>;
  readonly direction: Readonly<Record<Direction, string>>;
  readonly to: (horizon: string, end: string) => string;
  readonly scored: (horizon: string, end: string, came: string) => string;
  readonly inRange: (yes: boolean) => string;
  readonly directionRight: (yes: boolean) => string;
  readonly awaiting: string;
  readonly noOpen: string;
  readonly noBaseline: string;
  readonly record: (calls: number) => string;
  readonly recordValue: (board: Scoreboard['desk']) => string;
  readonly noRecord: string;
  readonly recordLine: (calls: number, desk: string, baseline: string) => string;
  readonly baselineWord: string;
  readonly deskWord: string;
  readonly lockedOpen: (plans: string) => string;
  readonly noProducts: string;
  readonly more: string;
  readonly moreProducts: (n: number) => string;
  readonly stop: string;
  readonly columns: readonly [string, string, string];
  readonly settings: string;
  readonly unsubscribe: string;
  readonly footer: string;
  readonly readMore: string;
}

const WORDS: Readonly<Record<DeliveryLanguage, Words>> = {
  en: {
    title: 'PolyIndex forecasts',
    subject: 'PolyIndex weekly forecasts',
    horizon: { '1w': '1 week', '1m': '1 month', '3m': '3 months' },
    direction: { up: 'Up', flat: 'Flat', down: 'Down' },
    to: (h, end) => `${h}, to ${end}`,
    scored: (h, end, came) => `Scored: ${h}, to ${end} · came ${came}`,
    inRange: (yes) => (yes ? '✓ in range' : '✗ outside range'),
    directionRight: (yes) => (yes ? '✓ direction' : '✗ direction'),
    awaiting: 'awaiting a price',
    noOpen: 'no open call',
    noBaseline: '—',
    record: (calls) => `12 months, ${calls} ${calls === 1 ? 'call' : 'calls'} (in range · direction right)`,
    recordValue: (t) => `${sharePct(t.hitRate)} · ${sharePct(t.directionAccuracy)}`,
    noRecord: 'No call scored in the last 12 months.',
    recordLine: (calls, desk, baseline) => `12 months (${calls} ${calls === 1 ? 'call' : 'calls'}), in range · direction right: desk ${desk}, baseline ${baseline}`,
    baselineWord: 'baseline',
    deskWord: 'desk',
    lockedOpen: (plans) => `The desk's open calls and the baseline's range come with ${plans}. Here: the scored calls and the record.`,
    noProducts: 'None of your prices has forecasts yet.',
    more: 'More',
    moreProducts: (n) => `+${n} more ${n === 1 ? 'product' : 'products'} at the link below`,
    stop: 'Reply STOP to end these updates.',
    columns: ['Call', 'Desk', 'Statistical baseline'],
    settings: 'Change what you receive',
    unsubscribe: 'Unsubscribe from the weekly forecasts',
    footer: 'You receive this e-mail because you asked for the PolyIndex weekly forecast digest on /alerts.',
    readMore: 'The outlook and track record',
  },
  hi: {
    title: 'PolyIndex अनुमान',
    subject: 'PolyIndex साप्ताहिक अनुमान',
    horizon: { '1w': '1 हफ्ता', '1m': '1 महीना', '3m': '3 महीने' },
    direction: { up: 'ऊपर', flat: 'स्थिर', down: 'नीचे' },
    to: (h, end) => `${h}, ${end} तक`,
    scored: (h, end, came) => `स्कोर: ${h}, ${end} तक · भाव रहा ${came}`,
    inRange: (yes) => (yes ? '✓ रेंज में' : '✗ रेंज से बाहर'),
    directionRight: (yes) => (yes ? '✓ दिशा सही' : '✗ दिशा गलत'),
    awaiting: 'भाव का इंतज़ार',
    noOpen: 'कोई खुला अनुमान नहीं',
    noBaseline: '—',
    record: (calls) => `12 महीने, ${calls} अनुमान (रेंज में · दिशा सही)`,
    recordValue: (t) => `${sharePct(t.hitRate)} · ${sharePct(t.directionAccuracy)}`,
    noRecord: 'पिछले 12 महीनों में कोई अनुमान स्कोर नहीं हुआ।',
    recordLine: (calls, desk, baseline) => `12 महीने (${calls} अनुमान), रेंज में · दिशा सही: डेस्क ${desk}, आधार ${baseline}`,
    baselineWord: 'आधार',
    deskWord: 'डेस्क',
    lockedOpen: (plans) => `डेस्क के खुले अनुमान और सांख्यिकीय आधार की रेंज ${plans} प्लान में मिलती है। यहाँ: स्कोर हुए अनुमान और रिकॉर्ड।`,
    noProducts: 'आपके चुने भावों पर अभी अनुमान नहीं हैं।',
    more: 'और देखें',
    moreProducts: (n) => `+${n} और उत्पाद नीचे दिए लिंक पर`,
    stop: 'ये अपडेट बंद करने के लिए STOP भेजें।',
    columns: ['अनुमान', 'डेस्क', 'सांख्यिकीय आधार'],
    settings: 'क्या मिले, यह बदलें',
    unsubscribe: 'साप्ताहिक अनुमान बंद करें',
    footer: 'यह ई-मेल आपको इसलिए मिला क्योंकि आपने /alerts पर PolyIndex का साप्ताहिक अनुमान चुना है।',
    readMore: 'आउटलुक और ट्रैक रिकॉर्ड',
  },
};

const priceWords = (value: number, reference: number): string => formatNumber(value, rangeDigits(reference));

/** A call's direction and range, in prices or (public terms) as changes from its base. */
function callText(f: Forecast, words: Words, inPrices: boolean): string {
  const range = inPrices ? rangeText(f) : changeRangeText(pctFromBase(f.low, f.baseValue), pctFromBase(f.high, f.baseValue));
  return `${directionArrow(f.direction)} ${words.direction[f.direction]} ${range}`;
}

const callOnly = (call: string): DigestCell => ({ call, score: '' });

function scoreText(score: Score | undefined, words: Words): string {
  const outcome = score?.outcome;
  if (!outcome) return words.awaiting;
  return `${words.inRange(outcome.insideRange)}, ${words.directionRight(outcome.directionRight)}`;
}

/** The desk's calls that matured with a price, newest end date first (corrections count too: both stay on the record). */
function lastScored(forecasts: readonly Forecast[], scores: ReadonlyMap<string, Score>, today: IsoDate, count: number): Forecast[] {
  return forecasts
    .filter((f) => isDesk(f) && isMatured(f, today) && scores.get(f.id)?.outcome)
    .sort((a, b) => b.endDate.localeCompare(a.endDate) || b.publishedAt.localeCompare(a.publishedAt))
    .slice(0, count);
}

/** One product's rows: open calls (plans with them), the last scored calls, the record. */
export function digestSection(product: DigestProduct, input: Pick<DigestInput, 'day' | 'language' | 'openCalls'>, scoredCount: number = MAX_SCORED_CALLS): DigestSection {
  const words = WORDS[input.language];
  const today = input.day;
  // Only matured calls reach the record or the scored rows (as on the public track record).
  const matured = product.forecasts.filter((f) => isMatured(f, today));
  const rows: DigestRow[] = [];
  if (input.openCalls) {
    for (const h of horizons) {
      const desk = latestOpenDeskCall(product.forecasts, h, today);
      const latest = latestBaseline(product.forecasts, h);
      const baseline = latest && !isMatured(latest, today) ? latest : null;
      // A horizon with neither an open call nor a current baseline has nothing to say this week.
      const end = desk?.endDate ?? baseline?.endDate;
      if (!end) continue;
      rows.push({
        kind: 'open',
        label: words.to(words.horizon[h], shortDay(end, input.language, today)),
        desk: callOnly(desk ? callText(desk, words, true) : words.noOpen),
        baseline: callOnly(baseline ? callText(baseline, words, true) : words.noBaseline),
      });
    }
  }
  const twins = new Map(matured.filter(isBaseline).map((f) => [twinKey(f), f]));
  for (const f of lastScored(matured, product.scores, today, scoredCount)) {
    const actual = product.scores.get(f.id)!.actual!;
    const came = input.openCalls ? priceWords(actual.value, f.high) : signedPct(pctFromBase(actual.value, f.baseValue));
    const twin = twins.get(twinKey(f));
    rows.push({
      kind: 'scored',
      label: words.scored(words.horizon[f.horizon], shortDay(f.endDate, input.language, today), came),
      desk: { call: callText(f, words, input.openCalls), score: scoreText(product.scores.get(f.id), words) },
      baseline: twin ? { call: callText(twin, words, input.openCalls), score: scoreText(product.scores.get(twin.id), words) } : callOnly(words.noBaseline),
    });
  }
  const board = scoreboardOf(matured, product.scores, today);
  rows.push(
    board.desk.calls === 0
      ? { kind: 'record', label: words.noRecord, desk: callOnly(''), baseline: callOnly('') }
      : { kind: 'record', label: words.record(board.desk.calls), desk: callOnly(words.recordValue(board.desk)), baseline: callOnly(words.recordValue(board.baseline)), calls: board.desk.calls },
  );
  return { title: `${product.label} · ${product.unit}`, link: product.link, rows };
}

// ---- WhatsApp ---------------------------------------------------------------------------------

/** A row as one WhatsApp line. */
function whatsappRow(row: DigestRow, words: Words): string {
  if (row.kind === 'record') return row.calls ? words.recordLine(row.calls, row.desk.call, row.baseline.call) : row.label;
  if (row.kind === 'open') return `${row.label}: ${row.desk.call} · ${words.baselineWord} ${row.baseline.call}`;
  return `${row.label} · ${words.deskWord} ${cellText(row.desk)}`;
}

const productLines = (section: DigestSection, words: Words): string[] => [`📈 *${section.title}*`, ...section.rows.map((row) => whatsappRow(row, words))];

export interface WhatsAppDigest {
  /** The digest as free text (inside the 24-hour service window). */
  readonly text: string;
  /** The digest as a template (outside it) and its parameters. */
  readonly template: WhatsAppTemplate;
  readonly params: readonly string[];
}

/** Whole products while `fits`, then "+N more products". */
function fitProducts(blocks: readonly (readonly string[])[], intro: readonly string[], words: Words, fits: (lines: readonly string[]) => boolean): string[] {
  for (let keep = blocks.length; keep >= 0; keep--) {
    const left = blocks.length - keep;
    const lines = [...intro, ...blocks.slice(0, keep).flat(), ...(left > 0 ? [words.moreProducts(left)] : [])];
    if (lines.length > 0 && fits(lines)) return lines;
  }
  return [words.moreProducts(blocks.length)];
}

export function whatsappForecastDigest(input: DigestInput): WhatsAppDigest {
  const words = WORDS[input.language];
  const header = fullDay(input.day, input.language);
  // WhatsApp carries the latest scored call of each product (e-mail has room for more).
  const blocks = input.products.map((p) => productLines(digestSection(p, input, 1), words));
  const intro = [...(input.openCalls ? [] : [words.lockedOpen(input.openCallPlans)]), ...(blocks.length === 0 ? [words.noProducts] : [])];

  const templateFits = (lines: readonly string[]) => lines.length <= MAX_DIGEST_LINES && renderTemplate(forecastDigestTemplate(input.language, lines.length), [header, ...lines, input.moreLink]).length <= TEMPLATE_BODY_MAX;
  const templateLines = fitProducts(blocks, intro, words, templateFits);
  const freeText = (lines: readonly string[]) => {
    // A blank line before each product after the first line.
    const body = lines.map((line, i) => (i > 0 && line.startsWith('📈') ? `\n${line}` : line)).join('\n');
    return `*${words.title} · ${header}*\n\n${body}\n\n${words.more}: ${input.moreLink}\n${words.stop}`;
  };
  const textLines = fitProducts(blocks, intro, words, (lines) => freeText(lines).length <= TEXT_BODY_MAX);
  return { text: freeText(textLines), template: forecastDigestTemplate(input.language, templateLines.length), params: [header, ...templateLines, input.moreLink] };
}

// ---- e-mail -----------------------------------------------------------------------------------

export interface MailForecastDigest {
  readonly language: DeliveryLanguage;
  readonly subject: string;
  readonly heading: string;
  /** Said to readers whose plan has no open calls; null otherwise. */
  readonly notice: string | null;
  readonly noProducts: string | null;
  readonly columns: readonly [string, string, string];
  readonly sections: readonly DigestSection[];
  readonly readMore: string;
  readonly settings: { readonly text: string; readonly href: string };
  readonly unsubscribe: string;
  readonly footer: string;
}

export function mailForecastDigest(input: DigestInput): MailForecastDigest {
  const words = WORDS[input.language];
  const day = fullDay(input.day, input.language);
  return {
    language: input.language,
    subject: `${words.subject} · ${day}`,
    heading: `${words.subject} · ${day}`,
    notice: input.openCalls ? null : words.lockedOpen(input.openCallPlans),
    noProducts: input.products.length === 0 ? words.noProducts : null,
    columns: words.columns,
    sections: input.products.map((p) => digestSection(p, input)),
    readMore: words.readMore,
    settings: { text: words.settings, href: input.settingsLink },
    unsubscribe: words.unsubscribe,
    footer: words.footer,
  };
}

/** A row as one line of the plain-text e-mail. */
export function plainDigestRow(row: DigestRow, language: DeliveryLanguage): string {
  const words = WORDS[language];
  if (row.kind === 'record' && !row.calls) return row.label;
  return `${row.label}: ${words.deskWord} ${cellText(row.desk)}; ${words.baselineWord} ${cellText(row.baseline)}`;
}
