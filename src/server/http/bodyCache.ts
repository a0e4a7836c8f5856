/**
 * A small in-memory cache of shaped response bodies with their ETags. Price data changes a few
 * times a day, while charts are read all day: a repeat request costs a map look-up, not a
 * range read + shaping + JSON + hash. Entries are valid while the store's write version is
 * unchanged and for at most `ttlMs` (writes by other instances sharing a libSQL server or Firestore are
 * seen within that time, the same 60 s the browser may keep the answer).
 */
import { etagOf } from './json.ts';

export interface CachedBody {
  readonly body: string;
  readonly etag: string;
}

interface Entry {
  readonly version: number;
  readonly expires: number;
  readonly value: Promise<CachedBody>;
}

export interface BodyCache {
  get(key: string, version: number, compute: () => Promise<string>): Promise<CachedBody>;
  readonly size: number;
}

export function createBodyCache({ max = 500, ttlMs = 60_000, now = () => Date.now() } = {}): BodyCache {
  const entries = new Map<string, Entry>();
  return {
    get size() {
      return entries.size;
    },
    get(key, version, compute) {
      const hit = entries.get(key);
      const at = now();
      if (hit && hit.version === version && hit.expires > at) {
        // Refresh recency (Map keeps insertion order: the oldest is evicted first).
        entries.delete(key);
        entries.set(key, hit);
        return hit.value;
      }
      // One computation per key at a time; a failure is not cached.
      const value = compute().then((body) => ({ body, etag: etagOf(body) }));
      value.catch(() => entries.delete(key));
      entries.delete(key);
      entries.set(key, { version, expires: at + ttlMs, value });
      while (entries.size > max) entries.delete(entries.keys().next().value!);
      return value;
    },
  };
}
