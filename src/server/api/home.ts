/**
 * The home page's two endpoints (no astro:* imports, like the other handlers): the Naphtha
 * teaser, public, a shape without figures; and the ticker of key series, public, with figures
 * only for visitors whose plan opens the data (the caller asks the access policy). The page itself is prerendered: it asks these after it loads.
 */
import { addDays, isoDateOf } from '../../lib/dates.ts';
import { revisionTickerItems, teaserOf, TEASER_DAYS, TEASER_SERIES, TICKER_SERIES, tickerDirection, tickerItem, type TickerAnswer, type TickerDirection, type TickerItem } from '../../lib/home.ts';
import { revisionsOf } from '../../lib/producerPrices.ts';
import { findSeries } from '../../lib/seriesCatalog.ts';
import { cachedJson, PUBLIC_CACHE } from '../http/json.ts';
import type { PriceStore } from '../store/prices.ts';
import type { ProducerPriceStore } from '../store/producerPrices.ts';

export async function teaserResponse(store: PriceStore, request: Request): Promise<Response> {
  const today = isoDateOf(new Date());
  const points = await store.points(TEASER_SERIES, { from: addDays(today, -TEASER_DAYS), to: today });
  return cachedJson(request, { data: teaserOf(findSeries(TEASER_SERIES)!.label, points) }, { cacheControl: PUBLIC_CACHE });
}

/**
 * The ticker for everyone: latest values and changes when `figures` (the visitor's plan opens the
 * data: the caller asks the access policy), else each series' name and the direction of its
 * latest move. After the series, the producers' latest list-price revisions. Never shared by
 * caches: the answer depends on the visitor.
 */
export async function tickerResponse(store: PriceStore & Pick<ProducerPriceStore, 'listProducerPrices'>, request: Request, figures: boolean): Promise<Response> {
  const series = (await Promise.all(TICKER_SERIES.map(async (id) => tickerItem(id, await store.latestPoints(id, 2))))).filter((item): item is TickerItem => item !== null);
  const items = [...series, ...revisionTickerItems(revisionsOf(await store.listProducerPrices()), isoDateOf(new Date()))];
  const answer: TickerAnswer = figures
    ? { figures: true, data: items }
    : { figures: false, data: items.map(tickerDirection).filter((item): item is TickerDirection => item !== null) };
  return cachedJson(request, answer);
}
