/**
 * The WhatsApp price bot's reading of a message: a command (help, stop, start) or a price
 * question matched against the catalog's instruments ("pp raffia mumbai", "naphtha", "brent",
 * "hdpe film"). A wrong price is worse than none, so matching is strict where traders' words are
 * codes: a question must name the product exactly (`ldpe` is never `lldpe` or `hdpe`), code words
 * (`PP`, `HDPE`, `ICP`, `NEA`) never match with a typo, and every typed word must fit the one
 * instrument. Plain words (grades, cities, countries) forgive one typo (two in long words). Among
 * the instruments that fit, the most exactly typed wins, then the tightest fit; a polymer grade
 * without a city means the Mumbai sheet, the market's benchmark. Anything else is "unknown", with
 * the closest prices as suggestions.
 */
import { instruments, type Instrument } from './instruments.ts';

export type BotRequest =
  | { readonly kind: 'help' }
  | { readonly kind: 'stop' }
  | { readonly kind: 'start' }
  | { readonly kind: 'price'; readonly instrument: Instrument }
  | { readonly kind: 'unknown'; readonly suggestions: readonly Instrument[] };

/** The longest message the bot reads; anything longer is not a price question. */
export const MAX_BOT_TEXT = 200;

const STOP_WORDS = new Set(['stop', 'unsubscribe', 'stopall', 'cancel', 'end', 'quit']);
const START_WORDS = new Set(['start', 'subscribe', 'resume', 'unstop']);
const HELP_WORDS = new Set(['help', 'hi', 'hello', 'menu', '?']);
/** Words that carry no meaning in a price question. */
const FILLER = new Set([
  'price', 'prices', 'rate', 'rates', 'of', 'in', 'for', 'the', 'today', 'todays', 'what', 'whats', 'is', 'please', 'pls', 'plz', 'at', 'ex', 'latest', 'current',
  'kindly', 'share', 'send', 'me', 'tell', 'give', 'resin', 'grade', 'market', 'kg', 'per', 'rs', 'now', 'a', 'and', 'to',
]);
/**
 * The same word spelled another way (exact, never fuzzy): full names, trade abbreviations
 * (BM blow moulding, IM injection moulding), US spelling and common misspellings of products.
 */
const ALIASES: Record<string, string> = {
  polypropylene: 'pp',
  crude: 'brent',
  oil: 'brent',
  usd: 'usdinr',
  dollar: 'usdinr',
  inr: 'usdinr',
  bombay: 'mumbai',
  bengaluru: 'bangalore',
  naphta: 'naphtha',
  naptha: 'naphtha',
  nafta: 'naphtha',
  molding: 'moulding',
  bm: 'blow',
  im: 'injection',
  inj: 'injection',
  lam: 'lamination',
  rcp: 'random',
  vam: 'va',
  sm: 'styrene',
};

const alias = (word: string): string => ALIASES[word] ?? word;

export const tokensOf = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9?]+/g, ' ')
    .split(' ')
    // "?" alone asks for help; at the end of a word it is punctuation.
    .map((word) => (word === '?' ? word : word.replaceAll('?', '')))
    .filter(Boolean)
    .map(alias);

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
}

/** Every code and product word of the catalog: typed, it is never taken for a typo of another word. */
const CODES: ReadonlySet<string> = new Set(instruments.flatMap((i) => [...i.codeWords, ...i.productWords].map(alias)));

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

/**
 * The instrument a question names, or suggestions when none fits: the question must name a
 * product exactly and every typed word must fit the instrument. Ranked: most words typed exactly,
 * then the tightest fit, then the Mumbai sheet, then catalog order.
 */
export function matchInstrument(text: string): { best: Instrument | null; suggestions: Instrument[] } {
  const typed = tokensOf(text).filter((word) => !FILLER.has(word));
  if (typed.length === 0) return { best: null, suggestions: [] };
  const scored: Scored[] = KNOWN.map((known) => {
    const fits = typed.map((word) => fit(word, known));
    const untyped = known.words.filter((word) => !known.implied.has(word) && !typed.some((t) => wordFits(t, word, known))).length;
    return {
      known,
      matched: fits.filter((f) => f > 0).length,
      exact: fits.filter((f) => f === 2).length,
      product: typed.some((word) => known.product.has(word)),
      untyped,
    };
  });
  const full = scored.filter((s) => s.product && s.matched === typed.length);
  if (full.length > 0) {
    const best = full.toSorted((a, b) => compare([-a.exact, a.untyped, cityRank(a.known.instrument), a.known.order], [-b.exact, b.untyped, cityRank(b.known.instrument), b.known.order]))[0]!;
    return { best: best.known.instrument, suggestions: [] };
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
  return { best: null, suggestions };
}

/** What a message asks. */
export function readBotMessage(text: string): BotRequest {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_BOT_TEXT) return { kind: 'unknown', suggestions: [] };
  const words = tokensOf(trimmed);
  if (words.length === 1 && STOP_WORDS.has(words[0]!)) return { kind: 'stop' };
  if (words.length === 1 && START_WORDS.has(words[0]!)) return { kind: 'start' };
  if (words.length === 0 || (words.length === 1 && HELP_WORDS.has(words[0]!))) return { kind: 'help' };
  const { best, suggestions } = matchInstrument(trimmed);
  return best ? { kind: 'price', instrument: best } : { kind: 'unknown', suggestions };
}

export const BOT_HELP =
  'Ask for a price by name, e.g. "pp raffia mumbai", "hdpe film", "naphtha", "brent" or "usd inr". ' +
  'Send STOP to end daily updates and alerts on WhatsApp, START to resume them.';
