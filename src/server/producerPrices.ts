/**
 * Producer list prices as the screens, the ticker, the daily update and the bot read them: the
 * store's records, with the revisions computed (src/lib/producerPrices.ts). One read of every
 * record (a few thousand at most); the screens filter in memory.
 */
import { revisionsOf, type Revision } from '../lib/producerPrices.ts';
import type { Store } from './store/index.ts';

/** Every list with its revision (change against the previous list of its line), newest first. */
export async function readRevisions(store: Pick<Store, 'listProducerPrices'>, producer?: string): Promise<Revision[]> {
  return revisionsOf(await store.listProducerPrices(producer));
}
