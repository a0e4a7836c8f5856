/**
 * Producers' list prices for the price bot (issue 20): when a question names a producer ("ril pp
 * price", "iocl hdpe ka rate"), the bot asks this seam for the producer's lists in force on the
 * day asked, of the grades the question named (or all of the producer's grades of that product,
 * or all its lists). The source reads the desk's list prices from the store
 * (src/lib/producerPrices.ts); a producer PolyIndex does not list answers nothing, and the bot
 * then gives the market price.
 */
import type { Instrument } from '../../lib/delivery/instruments.ts';
import type { Producer } from '../../lib/delivery/producers.ts';
import { findGrade } from '../../lib/catalog.ts';
import { currentLists, type ListLine } from '../../lib/producerPrices.ts';
import { findSeries } from '../../lib/seriesCatalog.ts';
import type { ProducerPriceStore } from '../store/producerPrices.ts';

/** One producer list price in force: its line (grade and place), value (₹/kg, GST extra), effective date and last change. */
export interface ProducerListPrice {
  readonly line: ListLine;
  /** ISO day it applies from. */
  readonly date: string;
  readonly value: number;
  /** ± ₹/kg against the previous list of the line; null for its first list. */
  readonly change: number | null;
}

export interface ProducerPriceSource {
  /** The producer's lists in force on `date` for these instruments' grades (none named: all its lists); none known: []. */
  listPrices(producer: Producer, instruments: readonly Instrument[], date: string): Promise<readonly ProducerListPrice[]>;
}

/** The most lists one answer holds (a producer lists up to ~15; a WhatsApp reply stays readable). */
export const MAX_LISTS_IN_ANSWER = 8;

/** The grade keys an instrument names (a city sheet's grade, a historical series' grade); none for feedstocks. */
export function gradeOf(instrument: Instrument): string | null {
  const source = instrument.source;
  if (source.kind === 'city') return source.grade;
  const series = findSeries(source.seriesId);
  return series?.family === 'historical' ? series.product : null;
}

/** Which of a producer's lines a question means: the grades it named; else those grades' products; none named: all. */
export function linesAsked(lines: readonly ListLine[], instruments: readonly Instrument[]): ListLine[] {
  if (instruments.length === 0) return [...lines];
  const grades = new Set(instruments.flatMap((i) => gradeOf(i) ?? []));
  const byGrade = lines.filter((l) => grades.has(l.grade));
  if (byGrade.length > 0) return byGrade;
  const products = new Set<string>([...grades].flatMap((g) => findGrade(g)?.polymer.slug ?? []));
  return lines.filter((l) => products.has(l.product));
}

/** The list prices the desk entered, read from the store. */
export function storeProducerPrices(store: Pick<ProducerPriceStore, 'listProducerPrices'>): ProducerPriceSource {
  return {
    async listPrices(producer, instruments, date) {
      const lists = currentLists(await store.listProducerPrices(producer.id), date);
      const wanted = new Set(linesAsked(lists.map((r) => r.line), instruments).map((l) => l.id));
      return lists
        .filter((r) => wanted.has(r.line.id))
        .slice(0, MAX_LISTS_IN_ANSWER)
        .map((r) => ({ line: r.line, date: r.record.effective, value: r.record.value, change: r.change }));
    },
  };
}

/** No list prices at all (a deployment without them, and tests of the bot's fallback). */
export const NO_PRODUCER_PRICES: ProducerPriceSource = { listPrices: () => Promise.resolve([]) };
