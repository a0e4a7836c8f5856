/**
 * The WhatsApp price bot's reading of a message: a command (help, stop, start) or a price
 * question, in English, Hinglish or Hindi ("pp raffia mumbai", "pp raffia ka daam kya hai",
 * "aaj pp ka bhav", "पीपी रैफ़िया मुंबई", "hdpe", "pp raffia 23 nov", "kal ka bhav",
 * "naphtha last week", "reliance pp raffia").
 *
 * Reading goes in steps: the text is normalised (Devanagari without nukta, spelled-out letters
 * joined: "एच डी पी ई" is "hdpe"), its day is taken out ("aaj", "kal", "23 nov", "last week"),
 * words meaning nothing for the price ("ka", "daam", "kya hai", "भाव") are dropped, and a
 * producer is noticed ("reliance", "iocl"). What is left is matched against the catalog's
 * instruments.
 *
 * A wrong price is worse than none, so matching is strict where traders' words are codes: a
 * question must name the product exactly (`ldpe` is never `lldpe` or `hdpe`), code words (`PP`,
 * `HDPE`, `ICP`, `NEA`) never match with a typo, and every typed word must fit the instrument.
 * Plain words (grades, cities, countries) forgive one typo (two in long words). Among the
 * instruments that fit, the most exactly typed wins, then the tightest fit; a polymer grade
 * without a city means the Mumbai sheet, the market's benchmark. A question that names a product
 * but not which of its grades (or markets) is a family question: "hdpe" is every HDPE grade of
 * the Mumbai sheet, "naphtha" both naphtha markets, answered in one reply. Anything else is
 * "unknown", with the three closest prices as suggestions.
 */
import { addDays, isRealDate, type IsoDate } from '../dates.ts';
import { findGrade } from '../catalog.ts';
import { findSeries } from '../seriesCatalog.ts';
import { monthNumber } from './dateWords.ts';
import { instruments, type Instrument } from './instruments.ts';
import { producerOfWord, type Producer } from './producers.ts';
import { READING_ALIASES } from './vocabulary.ts';

/** Which prices a question asks for in time. */
export type When =
  /** The latest price ("aaj", "today", or no day at all). */
  | { readonly kind: 'latest' }
  /** The price of a day (the last one published on or before it): "kal", "23 nov". */
  | { readonly kind: 'on'; readonly date: IsoDate }
  /** Then and now, with the change between: "last week", "pichle mahine". */
  | { readonly kind: 'since'; readonly date: IsoDate; readonly span: 'week' | 'month' };

export type BotRequest =
  | { readonly kind: 'help' }
  | { readonly kind: 'stop' }
  | { readonly kind: 'start' }
  /** One price, or a family's (every grade of a product at one place, every market of a feedstock). */
  | { readonly kind: 'price'; readonly instruments: readonly Instrument[]; readonly family: boolean; readonly when: When }
  /** "aaj ka bhav", "कल का भाव": a price word and no product, the subscriber's daily-update prices. */
  | { readonly kind: 'digest'; readonly when: When }
  /** A producer's list price ("reliance pp raffia"); `instruments` are the market prices it named, if any. */
  | { readonly kind: 'producer'; readonly producer: Producer; readonly instruments: readonly Instrument[]; readonly family: boolean; readonly when: When }
  | { readonly kind: 'unknown'; readonly suggestions: readonly Instrument[] }
  /** "pp forecast": the desk's open calls and track record on the price asked (none named: help). */
  | { readonly kind: 'forecast'; readonly instruments: readonly Instrument[] };

/** The longest message the bot reads; anything longer is not a price question. */
export const MAX_BOT_TEXT = 200;

const STOP_WORDS = new Set(['stop', 'unsubscribe', 'stopall', 'cancel', 'end', 'quit', 'band', 'बंद', 'रोको']);
const START_WORDS = new Set(['start', 'subscribe', 'resume', 'unstop', 'shuru', 'शुरू']);
const HELP_WORDS = new Set(['help', 'hi', 'hii', 'hello', 'hey', 'menu', '?', 'namaste', 'namaskar', 'नमस्ते', 'नमस्कार', 'मदद', 'madad']);

/** Words asking for a price, in any of the three ways of writing: with no product, the subscriber's own list. */
const PRICE_WORDS = new Set([
  'price', 'prices', 'rate', 'rates', 'daam', 'dam', 'daamm', 'bhav', 'bhaav', 'bhaw', 'bhao', 'bhau', 'kimat', 'keemat', 'qeemat', 'kimmat',
  'भाव', 'दाम', 'रेट', 'कीमत', 'क़ीमत', 'मूल्य',
]);

/** Words that carry no meaning in a price question (English, Hinglish, Hindi). */
const FILLER = new Set([
  ...PRICE_WORDS,
  'of', 'in', 'for', 'the', 'what', 'whats', 'is', 'are', 'please', 'pls', 'plz', 'plss', 'at', 'ex', 'latest', 'current', 'kindly', 'share', 'send', 'me', 'tell',
  'give', 'resin', 'grade', 'grades', 'market', 'kg', 'per', 'rs', 'a', 'and', 'to', 'how', 'much', 'pricing', 'quote', 'update', 'updates', 'ok', 'okay', 'dear',
  'sir', 'ji', 'bhai', 'bhaiya', 'boss', 'thanks', 'thank', 'you', 'u', 'pl', 'mt', 'ton', 'tonne', 'wat', 'good', 'morning', 'gm', 'evening', 'on', 'list', 'was', 'wht', 'check', 'know', 'want', 'need', 'can', 'i', 'get',
  // Hinglish.
  'ka', 'ki', 'ke', 'ko', 'kaa', 'kee', 'kya', 'kyaa', 'kia', 'hai', 'he', 'h', 'hain', 'hy', 'batao', 'bata', 'btao', 'bta', 'bataye', 'bataiye', 'bataen', 'batana', 'do', 'dijiye',
  'dena', 'de', 'chahiye', 'chaiye', 'kitna', 'kitne', 'kitni', 'kaisa', 'kaise', 'kaisi', 'chal', 'raha', 'rha', 'rahi', 'mein', 'me', 'mai', 'mei', 'se', 'aur', 'wala', 'vala',
  'wali', 'vali', 'ab', 'bolo', 'bhejo', 'bhej', 'tha', 'thi', 'hua', 'huaa', 'kar', 'karo', 'lo', 'sa', 'koi', 'bazaar', 'bazar', 'mandi', 'abhi', 'bhi', 'yaar', 'yar', 'ek', 'jara', 'zara', 'ho', 'gaya',
  // Hindi.
  'का', 'की', 'के', 'को', 'है', 'हैं', 'क्या', 'बताओ', 'बताइए', 'बताइये', 'बताएं', 'बताएँ', 'बता', 'दो', 'दीजिए', 'दीजिये', 'चाहिए', 'कितना', 'कितने', 'कितनी', 'में', 'से',
  'और', 'वाला', 'वाली', 'अभी', 'भाई', 'जी', 'सर', 'रुपये', 'रुपया', 'रु', 'प्रति', 'किलो', 'टन', 'लेटेस्ट', 'ताजा', 'ताज़ा', 'मार्केट', 'बाजार', 'बाज़ार', 'मंडी', 'कृपया',
  'प्लीज', 'भी', 'चल', 'रहा', 'रही', 'हो', 'गया', 'ज़रा', 'जरा', 'करो', 'कर', 'एक', 'था', 'थी', 'भेजो', 'भेजें',
]);

/**
 * The same word spelled another way (exact, never fuzzy): full names, trade abbreviations
 * (BM blow moulding, IM injection moulding), Hinglish and US spellings, common misspellings.
 * Devanagari spellings come from vocabulary.ts.
 */
const ALIASES: Record<string, string> = {
  ...READING_ALIASES,
  polypropylene: 'pp',
  polyproplene: 'pp',
  polyethylene: 'pe',
  crude: 'brent',
  oil: 'brent',
  usd: 'usdinr',
  dollar: 'usdinr',
  dolar: 'usdinr',
  doller: 'usdinr',
  inr: 'usdinr',
  rupee: 'usdinr',
  bombay: 'mumbai',
  bambai: 'mumbai',
  mumbi: 'mumbai',
  dilli: 'delhi',
  dehli: 'delhi',
  bengaluru: 'bangalore',
  bangaluru: 'bangalore',
  calcutta: 'kolkata',
  kolkatta: 'kolkata',
  amdavad: 'ahmedabad',
  ahmadabad: 'ahmedabad',
  poona: 'pune',
  naphta: 'naphtha',
  naptha: 'naphtha',
  nafta: 'naphtha',
  naftha: 'naphtha',
  molding: 'moulding',
  bm: 'blow',
  im: 'injection',
  inj: 'injection',
  lam: 'lamination',
  rcp: 'random',
  vam: 'va',
  sm: 'styrene',
  films: 'film',
  rafiya: 'raffia',
  raffiya: 'raffia',
  imported: 'import',
  imports: 'import',
  exworks: 'works',
};

/** Letters traders spell one by one ("p p", "h d p e"): joined when the whole is a product code. */
const SPELLED = new Set(['pp', 'hdpe', 'lldpe', 'ldpe', 'pvc', 'meg', 'pta', 'edc', 'vcm', 'acn']);

/** Normalises one word: lower case, no nukta or joiners, no apostrophes. */
const plain = (word: string): string => word.normalize('NFC').toLowerCase().replace(/\u093c|\u200c|\u200d|['’]/g, '');

/** Runs of single letters, or of Devanagari syllables, that together are a known word, joined. */
function joinSpelled(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; ) {
    let joined = false;
    for (let size = Math.min(5, words.length - i); size >= 2; size--) {
      const run = words.slice(i, i + size);
      const whole = run.join('');
      const letters = run.every((w) => /^[a-z]$/.test(w)) && SPELLED.has(whole);
      const devanagari = run.every((w) => /^[\u0900-\u097f]+$/.test(w)) && (READING_ALIASES[whole] !== undefined || producerOfWord(whole) !== undefined);
      const producer = producerOfWord(whole) !== undefined && run.every((w) => /^[a-z]+$/.test(w));
      if (letters || devanagari || producer) {
        out.push(whole);
        i += size;
        joined = true;
        break;
      }
    }
    if (!joined) out.push(words[i++]!);
  }
  return out;
}

/** The words of a message, normalised and joined (aliases not yet applied). */
export const wordsOf = (text: string): string[] =>
  joinSpelled(
    plain(text)
      .replace(/[^\p{L}\p{M}\p{N}?$]+/gu, ' ')
      .split(' ')
      // "?" alone asks for help; at the end of a word it is punctuation.
      .map((word) => (word === '?' ? word : word.replaceAll('?', '')))
      .filter(Boolean),
  );

const alias = (word: string): string => ALIASES[word] ?? word;

/** The words as the matcher compares them: normalised, aliased. */
export const tokensOf = (text: string): string[] => wordsOf(text).map(alias);

// ---- days -------------------------------------------------------------------------------------

const TODAY_WORDS = new Set(['aaj', 'aj', 'aajka', 'today', 'todays', 'now', 'आज']);
const YESTERDAY_WORDS = new Set(['kal', 'kl', 'kall', 'yesterday', 'yesterdays', 'कल']);
const DAY_BEFORE_WORDS = new Set(['parso', 'parson', 'parsoon', 'परसों', 'परसो']);
const LAST_WORDS = new Set(['last', 'pichle', 'pichhle', 'pichla', 'pichhla', 'pichli', 'previous', 'prev', 'पिछले', 'पिछला', 'पिछली', 'gaya', 'ago', 'pehle', 'pahle', 'पहले']);
const WEEK_WORDS = new Set(['week', 'weeks', 'wk', 'hafte', 'hafta', 'hafty', 'haftey', 'हफ्ते', 'हफ्ता', 'हफ़्ते', 'सप्ताह']);
const MONTH_WORDS = new Set(['month', 'months', 'mahine', 'mahina', 'mahiney', 'महीने', 'महीना', 'माह']);
/** Number words before "week"/"month". */
const COUNT_WORDS: Readonly<Record<string, number>> = { ek: 1, one: 1, एक: 1, do: 2, two: 2, दो: 2, teen: 3, three: 3, तीन: 3 };
/** Words asking for the desk's forecast rather than a price. */
const FORECAST_WORDS = new Set(['forecast', 'forecasts', 'outlook', 'prediction', 'predictions', 'anuman', 'anumaan', 'अनुमान', 'पूर्वानुमान']);
const TARIKH = new Set(['tarikh', 'tareekh', 'tarik', 'तारीख', 'date']);

/** The latest date ≤ today with this day and month (a year back when it is still to come). */
function recentDate(day: number, month: number, today: IsoDate, year?: number): IsoDate | null {
  const thisYear = Number(today.slice(0, 4));
  const pad = (n: number) => String(n).padStart(2, '0');
  const candidates = year !== undefined ? [year < 100 ? 2000 + year : year] : [thisYear, thisYear - 1];
  for (const y of candidates) {
    if (!isRealDate(y, month, day)) continue;
    const date = `${y}-${pad(month)}-${pad(day)}`;
    if (date <= today) return date;
  }
  return null;
}

interface Reading {
  readonly words: readonly string[];
  readonly when: When;
  /** A day was asked for that is not a real past day ("31 feb", a day to come). */
  readonly badDay: boolean;
}

/** Takes the day out of the words: numeric dates are read from the text first, then day words. */
function readDay(text: string, today: IsoDate): Reading {
  let when: When = { kind: 'latest' };
  let badDay = false;
  // 23/11, 23-11-2026, 23.11.26, 2026-11-23.
  const numeric = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b|\b(\d{1,2})[/.-](\d{1,2})(?:[/.-](\d{2,4}))?\b/.exec(text);
  let rest = text;
  if (numeric) {
    const [y, m, d] = numeric[1] ? [Number(numeric[1]), Number(numeric[2]), Number(numeric[3])] : [numeric[6] ? Number(numeric[6]) : undefined, Number(numeric[5]), Number(numeric[4])];
    const date = recentDate(d, m, today, y);
    if (date) when = { kind: 'on', date };
    else badDay = true;
    rest = text.replace(numeric[0], ' ');
  }
  const words = wordsOf(rest);
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    const previous = words[i - 1];
    if (TODAY_WORDS.has(word)) continue;
    if (YESTERDAY_WORDS.has(word)) {
      when = { kind: 'on', date: addDays(today, -1) };
      continue;
    }
    if (DAY_BEFORE_WORDS.has(word)) {
      when = { kind: 'on', date: addDays(today, -2) };
      continue;
    }
    if (WEEK_WORDS.has(word) || MONTH_WORDS.has(word)) {
      const span = WEEK_WORDS.has(word) ? 'week' : 'month';
      // "last week", "pichle hafte", "2 weeks ago", "ek hafte pehle": the words around it go too.
      const count = kept.length > 0 ? COUNT_WORDS[kept.at(-1)!] ?? (/^[1-9]$/.test(kept.at(-1)!) ? Number(kept.at(-1)) : undefined) : undefined;
      if (count !== undefined) kept.pop();
      if (kept.length > 0 && LAST_WORDS.has(kept.at(-1)!)) kept.pop();
      when = { kind: 'since', date: addDays(today, -(count ?? 1) * (span === 'week' ? 7 : 30)), span };
      if (next && LAST_WORDS.has(next)) i++;
      continue;
    }
    // "23 nov", "23rd november 2025", "nov 23", "23 नवंबर", "23 tarikh".
    const dayNumber = /^(\d{1,2})(st|nd|rd|th)?$/.exec(word);
    if (dayNumber) {
      const day = Number(dayNumber[1]);
      const yearAt = (at: number): number | undefined => (words[at] && /^\d{4}$/.test(words[at]!) ? Number(words[at]) : undefined);
      const monthAfter = next !== undefined ? monthNumber(next) : null;
      const monthBefore = previous !== undefined && kept.at(-1) === previous ? monthNumber(previous) : null;
      const month = monthAfter ?? monthBefore ?? (next !== undefined && TARIKH.has(next) ? Number(today.slice(5, 7)) : null);
      if (month !== null) {
        const year = monthAfter !== null ? yearAt(i + 2) : monthBefore !== null ? yearAt(i + 1) : undefined;
        // "23 tarikh" is this month's 23rd, or last month's while it is still to come.
        const date = recentDate(day, month, today, year) ?? (monthAfter === null && monthBefore === null ? recentDate(day, Number(addDays(`${today.slice(0, 8)}01`, -1).slice(5, 7)), today) : null);
        if (date) when = { kind: 'on', date };
        else badDay = true;
        if (monthBefore !== null && monthAfter === null) kept.pop();
        i += (monthBefore !== null && monthAfter === null ? 0 : 1) + (year !== undefined ? 1 : 0);
        continue;
      }
    }
    kept.push(word);
  }
  return { words: kept, when, badDay };
}

// ---- matching ---------------------------------------------------------------------------------

/** Optimal string alignment distance (Damerau–Levenshtein without repeated edits of a substring). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** How many typos a plain word of this length may carry and still match. */
const tolerance = (word: string): number => (word.length >= 8 ? 2 : word.length >= 4 ? 1 : 0);

/** An instrument's words as the bot compares them (aliases applied). */
interface Known {
  readonly instrument: Instrument;
  readonly order: number;
  readonly words: readonly string[];
  readonly product: ReadonlySet<string>;
  /** Words that may match a typo: plain (not product, not code) words of letters. */
  readonly fuzzy: ReadonlySet<string>;
  readonly implied: ReadonlySet<string>;
  /** Instruments of one family share this: a product at one place (or a feedstock, all its markets). */
  readonly family: string;
}

/** Every code and product word of the catalog: typed, it is never taken for a typo of another word. */
const CODES: ReadonlySet<string> = new Set(instruments.flatMap((i) => [...i.codeWords, ...i.productWords].map(alias)));

function familyOf(instrument: Instrument): string {
  const source = instrument.source;
  if (source.kind === 'city') return `city:${source.city}:${findGrade(source.grade)?.polymer.slug ?? source.grade}`;
  const series = findSeries(source.seriesId);
  if (!series) return source.seriesId;
  if (series.family === 'historical') return `historical:${series.market}:${findGrade(series.grade)?.polymer.slug ?? series.grade}`;
  return `${series.family}:${series.product}`;
}

const KNOWN: readonly Known[] = instruments.map((instrument, order) => {
  const words = [...new Set(instrument.words.map(alias))];
  const product = new Set(instrument.productWords.map(alias));
  const codes = new Set(instrument.codeWords.map(alias));
  return {
    instrument,
    order,
    words,
    product,
    fuzzy: new Set(words.filter((w) => !product.has(w) && !codes.has(w) && /^[a-z]+$/.test(w) && tolerance(w) > 0)),
    implied: new Set(instrument.impliedWords.map(alias)),
    family: familyOf(instrument),
  };
});

/** Whether a typed word is this known word: the same, or a typo of a plain word (never of a code or a product). */
function wordFits(typed: string, word: string, known: Known): boolean {
  if (typed === word) return true;
  if (!known.fuzzy.has(word) || CODES.has(typed) || !/^[a-z]+$/.test(typed)) return false;
  return editDistance(typed, word) <= Math.min(tolerance(typed), tolerance(word));
}

/** How a typed word meets an instrument: 2 exactly, 1 with a typo, 0 not at all. */
const fit = (typed: string, known: Known): 0 | 1 | 2 => (known.words.includes(typed) ? 2 : known.words.some((word) => wordFits(typed, word, known)) ? 1 : 0);

interface Scored {
  readonly known: Known;
  /** Typed words that fit one of the instrument's words, and of those, how many exactly. */
  readonly matched: number;
  readonly exact: number;
  /** A product word was typed exactly. */
  readonly product: boolean;
  /** The instrument's words nobody typed (fewer: a closer fit), implied ones aside. */
  readonly untyped: number;
}

const compare = (x: readonly number[], y: readonly number[]): number => {
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
};

/** A city sheet before a series, and Mumbai's sheet first: the bot answers as `/api/citywise` shows. */
const cityRank = (instrument: Instrument): number => (instrument.source.kind === 'city' ? (instrument.source.city === 'mumbai' ? 0 : 1) : 2);

export interface Match {
  /** The instrument the words name, or null. */
  readonly best: Instrument | null;
  /** Every instrument of the best one's family that the words fit just as well (the best first); [best] when the words name one. */
  readonly family: readonly Instrument[];
  /** When nothing fits: up to three close prices. */
  readonly suggestions: readonly Instrument[];
}

/** Matches words (already without filler and days) against the catalog. */
function matchWords(typed: readonly string[]): Match {
  if (typed.length === 0) return { best: null, family: [], suggestions: [] };
  const scored: Scored[] = KNOWN.map((known) => {
    const fits = typed.map((word) => fit(word, known));
    const untyped = known.words.filter((word) => !known.implied.has(word) && !typed.some((t) => wordFits(t, word, known))).length;
    return { known, matched: fits.filter((f) => f > 0).length, exact: fits.filter((f) => f === 2).length, product: typed.some((word) => known.product.has(word)), untyped };
  });
  const full = scored.filter((s) => s.product && s.matched === typed.length);
  if (full.length > 0) {
    const ranked = full.toSorted((a, b) => compare([-a.exact, a.untyped, cityRank(a.known.instrument), a.known.order], [-b.exact, b.untyped, cityRank(b.known.instrument), b.known.order]));
    const best = ranked[0]!;
    // A family question: no typed word tells the best one's family members apart ("hdpe", "naphtha", "pp cif"; not "edc sea").
    const members = KNOWN.filter((k) => k.family === best.known.family);
    const family = members.length > 1 && members.every((member) => typed.every((word) => fit(word, member) > 0)) ? members.map((m) => m.instrument) : [best.known.instrument];
    return { best: best.known.instrument, family, suggestions: [] };
  }
  const suggestions = scored
    .filter((s) => s.matched > 0)
    .toSorted((a, b) =>
      compare(
        [a.product ? 0 : 1, -a.exact, -a.matched, cityRank(a.known.instrument), a.untyped, a.known.order],
        [b.product ? 0 : 1, -b.exact, -b.matched, cityRank(b.known.instrument), b.untyped, b.known.order],
      ),
    )
    .slice(0, 3)
    .map((s) => s.known.instrument);
  return { best: null, family: [], suggestions: suggestions.length > 0 ? suggestions : nearestByLetters(typed) };
}

/**
 * When no word fits any price: the three instruments whose words are closest in letters to a
 * typed word (a code mistyped, "lpde", "hdep"), if any is within two edits.
 */
function nearestByLetters(typed: readonly string[]): Instrument[] {
  const long = typed.filter((t) => t.length >= 3);
  if (long.length === 0) return [];
  return KNOWN.map((known) => ({ known, distance: Math.min(...long.flatMap((t) => known.words.map((w) => editDistance(t, w)))) }))
    .filter((d) => d.distance <= 2)
    .toSorted((a, b) => compare([a.distance, cityRank(a.known.instrument), a.known.words.length, a.known.order], [b.distance, cityRank(b.known.instrument), b.known.words.length, b.known.order]))
    .slice(0, 3)
    .map((d) => d.known.instrument);
}

/**
 * The instrument a question names, or suggestions when none fits (the words of a plain price
 * question; days and producers are read by `readBotMessage`).
 */
export function matchInstrument(text: string): Match {
  return matchWords(tokensOf(text).filter((word) => !FILLER.has(word)));
}

/** What a message asks, on the Indian calendar day `today` (days in it are read against it). */
export function readBotMessage(text: string, today: IsoDate): BotRequest {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_BOT_TEXT) return { kind: 'unknown', suggestions: [] };
  const all = wordsOf(trimmed);
  if (all.length === 1 && STOP_WORDS.has(all[0]!)) return { kind: 'stop' };
  if (all.length === 1 && START_WORDS.has(all[0]!)) return { kind: 'start' };
  if (all.length === 0 || (all.length === 1 && HELP_WORDS.has(all[0]!))) return { kind: 'help' };

  const { words, when, badDay } = readDay(trimmed, today);
  const aliased = words.map(alias);
  const producer = aliased.map(producerOfWord).find((p) => p !== undefined);
  const typed = aliased.filter((word) => !FILLER.has(word) && !producerOfWord(word));
  const askedPrice = words.some((w) => PRICE_WORDS.has(w)) || when.kind !== 'latest' || all.some((w) => TODAY_WORDS.has(w));
  if (badDay) return { kind: 'unknown', suggestions: typed.length > 0 ? matchWords(typed).family : [] };
  if (words.some((w) => FORECAST_WORDS.has(w))) {
    const named = typed.filter((w) => !FORECAST_WORDS.has(w));
    if (named.length === 0) return { kind: 'help' };
    const asked = matchWords(named);
    return asked.best ? { kind: 'forecast', instruments: asked.family } : { kind: 'unknown', suggestions: asked.suggestions };
  }
  if (typed.length === 0) {
    if (producer) return { kind: 'producer', producer, instruments: [], family: false, when };
    return askedPrice ? { kind: 'digest', when } : { kind: 'help' };
  }
  const match = matchWords(typed);
  if (producer) return { kind: 'producer', producer, instruments: match.family, family: match.family.length > 1, when };
  if (!match.best) return { kind: 'unknown', suggestions: match.suggestions };
  return { kind: 'price', instruments: match.family, family: match.family.length > 1, when };
}
