/**
 * Producers' list prices (Reliance, IOCL, GAIL… announce their own ex-works prices): the seam the
 * price bot asks when a question names a producer. PolyIndex does not publish them yet, so the
 * only source is `NO_PRODUCER_PRICES`, and the bot answers "not on PolyIndex yet" with the market
 * price. When the desk starts publishing them, a source reading them from the store goes here
 * (and into DeliveryDeps.producerPrices); the bot already answers whatever it returns.
 */
import type { Instrument } from '../../lib/delivery/instruments.ts';
import type { Producer } from '../../lib/delivery/producers.ts';

/** One producer list price of a grade (in the grade's market unit). */
export interface ProducerListPrice {
  readonly instrument: Instrument;
  /** ISO day it applies from. */
  readonly date: string;
  readonly value: number;
}

export interface ProducerPriceSource {
  /** The producer's list prices for these instruments, on or before `date` (the latest of each); none known: []. */
  listPrices(producer: Producer, instruments: readonly Instrument[], date: string): Promise<readonly ProducerListPrice[]>;
}

/** Today's source: no producer publishes through PolyIndex yet. */
export const NO_PRODUCER_PRICES: ProducerPriceSource = { listPrices: () => Promise.resolve([]) };
