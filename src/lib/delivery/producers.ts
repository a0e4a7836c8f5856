/**
 * India's polymer producers as traders name them in a question ("reliance pp raffia", "iocl hdpe
 * ka rate", "गेल का भाव"): the price bot recognises a producer so that it can answer the
 * producer's list price. PolyIndex does not publish list prices yet; the bot says so clearly and
 * gives the market price instead (src/server/delivery/producerPrices.ts is the seam where list
 * prices will come from).
 */
export interface Producer {
  /** Stable id (`reliance`), for the list-price source. */
  readonly id: string;
  /** The name traders know. */
  readonly name: string;
  readonly nameHi: string;
  /** Words (lower case, Latin or Devanagari without nukta) that name it in a question. */
  readonly words: readonly string[];
}

export const PRODUCERS: readonly Producer[] = [
  { id: 'reliance', name: 'Reliance (RIL)', nameHi: 'रिलायंस (RIL)', words: ['reliance', 'ril', 'rel', 'रिलायंस', 'रिलाइंस'] },
  { id: 'iocl', name: 'Indian Oil (IOCL)', nameHi: 'इंडियन ऑयल (IOCL)', words: ['iocl', 'ioc', 'indianoil', 'इंडियनऑयल', 'आईओसी', 'आईओसीएल'] },
  { id: 'gail', name: 'GAIL', nameHi: 'गेल (GAIL)', words: ['gail', 'गेल'] },
  { id: 'hmel', name: 'HPCL-Mittal (HMEL)', nameHi: 'एचपीसीएल-मित्तल (HMEL)', words: ['hmel', 'hpcl', 'mittal', 'मित्तल'] },
  { id: 'haldia', name: 'Haldia Petrochemicals (HPL)', nameHi: 'हल्दिया पेट्रोकेमिकल्स (HPL)', words: ['haldia', 'hpl', 'हल्दिया'] },
  { id: 'opal', name: 'OPaL', nameHi: 'ओपल (OPaL)', words: ['opal', 'ओपल'] },
  { id: 'bcpl', name: 'Brahmaputra Cracker (BCPL)', nameHi: 'ब्रह्मपुत्र क्रैकर (BCPL)', words: ['bcpl', 'brahmaputra'] },
  { id: 'nayara', name: 'Nayara Energy', nameHi: 'नायरा एनर्जी', words: ['nayara', 'नायरा'] },
  { id: 'mrpl', name: 'MRPL', nameHi: 'एमआरपीएल (MRPL)', words: ['mrpl'] },
  { id: 'bpcl', name: 'BPCL', nameHi: 'बीपीसीएल (BPCL)', words: ['bpcl'] },
  { id: 'chemplast', name: 'Chemplast Sanmar', nameHi: 'केमप्लास्ट (Chemplast)', words: ['chemplast', 'sanmar'] },
  { id: 'finolex', name: 'Finolex', nameHi: 'फिनोलेक्स (Finolex)', words: ['finolex', 'फिनोलेक्स'] },
  { id: 'dcw', name: 'DCW', nameHi: 'डीसीडब्ल्यू (DCW)', words: ['dcw'] },
];

const byWord = new Map(PRODUCERS.flatMap((p) => p.words.map((w) => [w, p] as const)));
/** The producer a (normalised) word names, if any. */
export const producerOfWord = (word: string): Producer | undefined => byWord.get(word);
