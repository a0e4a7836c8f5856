/**
 * Prepared bodies of the data API: each answer's JSON text and ETag, computed once after a price
 * write (on the first request that needs it) and then served from memory by both lanes. Keys
 * name the endpoint and its validated inputs (a series-year, a city, a country-month); an entry
 * is valid while the store's write version is unchanged, so a write on this instance
 * invalidates every body at once, and for at most CACHE_BOUND_MS, the bound within which a
 * write on another instance (sharing Firestore or a libSQL server) is seen here — the same 60 s
 * a browser may keep a gated answer (`private, max-age=60`). See docs/data.md.
 */
import { createBodyCache } from '../http/bodyCache.ts';

export const CACHE_BOUND_MS = 60_000;

/** Room for every series-year of a busy day (a few hundred series-years, city sheets and offer months; ~10 KB each). */
export const preparedBodies = createBodyCache({ max: 2_000, ttlMs: CACHE_BOUND_MS });
