/**
 * The home page's two endpoints (no astro:* imports, like the other handlers): the Naphtha
 * teaser, public, a shape without figures; and the ticker of key series for subscribers (the
 * caller checks access). The page itself is prerendered: it asks these after it loads.
 */
import { addDays, isoDateOf } from '../../lib/dates.ts';
import { teaserOf, TEASER_DAYS, TEASER_SERIES, TICKER_SERIES, tickerItem, type TickerItem } from '../../lib/home.ts';
import { findSeries } from '../../lib/seriesCatalog.ts';
import { cachedJson, PUBLIC_CACHE } from '../http/json.ts';
import type { PriceStore } from '../store/prices.ts';

export async function teaserResponse(store: PriceStore, request: Request): Promise<Response> {
  const today = isoDateOf(new Date());
  const points = await store.points(TEASER_SERIES, { from: addDays(today, -TEASER_DAYS), to: today });
  return cachedJson(request, { data: teaserOf(findSeries(TEASER_SERIES)!.label, points) }, { cacheControl: PUBLIC_CACHE });
}

export async function tickerResponse(store: PriceStore, request: Request): Promise<Response> {
  const items = await Promise.all(TICKER_SERIES.map(async (id) => tickerItem(id, await store.latestPoints(id, 2))));
  return cachedJson(request, { data: items.filter((item): item is TickerItem => item !== null) });
}
