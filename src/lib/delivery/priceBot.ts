/**
 * The WhatsApp price bot's reading of a message: a command (help, stop, start) or a price
 * question matched fuzzily against the catalog's instruments ("pp raffia mumbai", "naphtha",
 * "brent", "hdpe film"). Typos of one letter (two in long words) are forgiven; a polymer grade
 * without a city means the Mumbai sheet, the market's benchmark.
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
const FILLER = new Set(['price', 'prices', 'rate', 'rates', 'of', 'in', 'for', 'the', 'today', 'what', 'is', 'please', 'pls', 'at', 'ex']);
const ALIASES: Record<string, string> = {
  polypropylene: 'pp',
  polyethylene: 'pe',
  crude: 'brent',
  oil: 'brent',
  usd: 'usdinr',
  dollar: 'usdinr',
  inr: 'usdinr',
  bombay: 'mumbai',
  bengaluru: 'bangalore',
  cif: 'cif',
};

export const tokensOf = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9?]+/g, ' ')
    .split(' ')
    .filter(Boolean)
    .map((word) => ALIASES[word] ?? word);

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

/** How many typos a word of this length may carry and still match. */
const tolerance = (word: string): number => (word.length >= 8 ? 2 : word.length >= 4 ? 1 : 0);

const wordMatches = (typed: string, known: string): boolean => typed === known || (tolerance(known) > 0 && editDistance(typed, known) <= Math.min(tolerance(typed), tolerance(known)));

interface Scored {
  readonly instrument: Instrument;
  /** Typed words that matched one of the instrument's words. */
  readonly matched: number;
  /** The instrument's words nobody typed (fewer: a closer fit). */
  readonly unmatched: number;
  readonly order: number;
}

/**
 * The best instrument for the typed words, or candidates when none fits every word. A city
 * sheet wins a tie with a series (the bot answers as `/api/citywise` shows), and a city-less
 * polymer grade means Mumbai.
 */
export function matchInstrument(text: string): { best: Instrument | null; suggestions: Instrument[] } {
  const typed = tokensOf(text).filter((word) => !FILLER.has(word));
  if (typed.length === 0) return { best: null, suggestions: [] };
  const scored: Scored[] = instruments.map((instrument, order) => {
    const known = instrument.words.map((word) => ALIASES[word] ?? word);
    const matched = typed.filter((word) => known.some((k) => wordMatches(word, k))).length;
    const unmatched = known.filter((k) => !typed.some((word) => wordMatches(word, k))).length;
    return { instrument, matched, unmatched, order };
  });
  const rank = (s: Scored): number[] => [
    -s.matched,
    // A grade without a city is the Mumbai sheet; a city sheet beats a series on a tie.
    s.instrument.source.kind === 'city' ? (s.instrument.source.city === 'mumbai' ? 0 : 1) : 2,
    s.unmatched,
    s.order,
  ];
  const ordered = scored
    .filter((s) => s.matched > 0)
    .toSorted((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
      return 0;
    });
  const full = ordered.filter((s) => s.matched === typed.length);
  if (full.length > 0) {
    // Among full matches, the tighter fit (fewest untyped words) wins before the Mumbai default.
    const tightest = Math.min(...full.map((s) => tightness(s)));
    const best = full.find((s) => tightness(s) === tightest)!;
    return { best: best.instrument, suggestions: [] };
  }
  return { best: null, suggestions: ordered.slice(0, 3).map((s) => s.instrument) };
}

/** Untyped words that matter: a city sheet's city is implied (Mumbai) when not typed. */
function tightness(s: Scored): number {
  if (s.instrument.source.kind === 'city') return s.unmatched - (s.instrument.source.city === 'mumbai' ? 1 : 0);
  return s.unmatched;
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
