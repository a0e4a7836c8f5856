/**
 * Prepared bodies of the data API: each answer's JSON text and ETag, computed once after a price
 * write (on the first request that needs it) and then served from memory by both lanes. Keys
 * name the endpoint and its validated inputs (a series-year, a city, a country-month); an entry
 * is valid while the store's write version is unchanged, so a write on this instance
 * invalidates every body at once, and for at most CACHE_BOUND_MS, the bound within which a
 * write on another instance (sharing Firestore or a libSQL server) is seen here — the same 60 s
 * a browser may keep a gated answer (`private, max-age=60`). See docs/data.md.
 */
import { createBodyCache, type BodyCache } from '../http/bodyCache.ts';

export const CACHE_BOUND_MS = 60_000;

/**
 * The prepared bodies of one store. Per store, because a write version says nothing of another
 * store's data: two stores in one process (tests, `store:copy`) at the same version must not
 * answer each other's bodies. Room for every series-year of a busy day (a few hundred
 * series-years, city sheets and offer months; ~10 KB each).
 */
const byStore = new WeakMap<object, BodyCache>();
export function preparedBodiesOf(store: object): BodyCache {
  let cache = byStore.get(store);
  if (!cache) byStore.set(store, (cache = createBodyCache({ max: 2_000, ttlMs: CACHE_BOUND_MS })));
  return cache;
}
