/**
 * The page cache: public pages (./routes.ts) kept in memory as the bytes Astro rendered (with
 * every header the lanes and middleware gave them), and their brotli and gzip forms, made once
 * (src/server/edge/compression.ts). A visitor without a session cookie asking for a kept page is
 * answered by the node:http server before Astro is involved (./lane.ts).
 *
 * When a kept page stops being served:
 * - **This instance's writes**: at once. The store tells its listeners after every write public
 *   pages show (src/server/store/documents/publicChanges.ts); the generation changes and every
 *   page is dropped. A render that began before the write is not kept (its generation is old).
 * - **Other instances' writes**: within CHECK_MS (plus one store read). Each write also records a
 *   new token in the store (the `publicChanges` record kind); pages are served only while the
 *   token was read less than CHECK_MS ago. It is read again in the background once half that time
 *   has passed, so under steady traffic pages never lapse; after a quiet spell the first requests
 *   render until the read is back.
 * - **Time**: every page expires PAGE_TTL_MS after it was rendered (a post scheduled for a later
 *   minute, dates that move on).
 * Memory: at most MAX_BYTES of rendered bodies, least recently used dropped first.
 */
import type { PublicChangeStore } from '../store/publicChanges.ts';

/** How stale another instance's change may be seen here at most (plus one store read). */
export const CHECK_MS = 5_000;
/** How long a rendered page is kept at most. */
export const PAGE_TTL_MS = 60_000;
/** Rendered bytes kept at most (their compressed forms come on top, a fraction of it). */
export const MAX_BYTES = 32 * 1024 * 1024;

/** A kept page: the answer as rendered (200), headers in lower case. */
export interface CachedPage {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Its entity tag (the identity bytes'), if it has one. */
  readonly etag: string | null;
  readonly storedAt: number;
  readonly generation: number;
}

export interface PageCacheDeps {
  /** The store's change marker (opened on first use). */
  readonly changes: () => Promise<PublicChangeStore>;
  readonly now?: () => number;
  readonly checkMs?: number;
  readonly ttlMs?: number;
  readonly maxBytes?: number;
}

export interface PageCache {
  /** A kept page for `key`, or null (none, expired, dropped, or the store's marker not read lately). */
  lookup(key: string): CachedPage | null;
  /** The generation to hand to `keep` for a render that begins now. */
  generation(): number;
  /** Keeps a rendered page, unless a change came since its render began (`generation`). */
  keep(key: string, page: { readonly headers: Readonly<Record<string, string>>; readonly body: Buffer }, generation: number): CachedPage | null;
  /** How many pages are kept (tests, the bench). */
  readonly size: number;
}

export function createPageCache(deps: PageCacheDeps): PageCache {
  const now = deps.now ?? Date.now;
  const checkMs = deps.checkMs ?? CHECK_MS;
  const ttlMs = deps.ttlMs ?? PAGE_TTL_MS;
  const maxBytes = deps.maxBytes ?? MAX_BYTES;
  const pages = new Map<string, CachedPage>();
  let bytes = 0;
  let generation = 0;
  /** The marker's token when last read (undefined: never read). */
  let token: string | null | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let retryAt = Number.NEGATIVE_INFINITY;
  let checking = false;
  let listening = false;

  const drop = (key: string) => {
    const page = pages.get(key);
    if (!page) return;
    pages.delete(key);
    bytes -= page.body.length;
  };
  const changed = () => {
    generation++;
    pages.clear();
    bytes = 0;
  };

  /** Reads the marker (in the background); a new token is a change made elsewhere. */
  const check = () => {
    checking = true;
    const started = now();
    void (async () => {
      const changes = await deps.changes();
      if (!listening) {
        listening = true;
        changes.onPublicChange(changed);
      }
      const current = await changes.publicChangeToken();
      // The first read: pages kept before this process listened to its own writes are dropped too.
      if (current !== token) changed();
      token = current;
      checkedAt = started;
    })()
      .catch((error: unknown) => {
        // The pages wait (they render) until the store answers again; not more than one read per interval.
        retryAt = started + checkMs;
        console.error('[page-cache] could not read the change marker:', error instanceof Error ? error.message : error);
      })
      .finally(() => {
        checking = false;
      });
  };

  return {
    get size() {
      return pages.size;
    },
    generation: () => generation,
    lookup(key) {
      const at = now();
      if (!checking && at >= checkedAt + checkMs / 2 && at >= retryAt) check();
      // Another instance's change could be unseen: render instead.
      if (at >= checkedAt + checkMs) return null;
      const page = pages.get(key);
      if (!page) return null;
      if (page.generation !== generation || at >= page.storedAt + ttlMs) {
        drop(key);
        return null;
      }
      // Most recently used last (Map order): the first is dropped first.
      pages.delete(key);
      pages.set(key, page);
      return page;
    },
    keep(key, { headers, body }, renderGeneration) {
      if (renderGeneration !== generation || body.length > maxBytes / 8) return null;
      const at = now();
      const etag = headers['etag'] ?? null;
      const page: CachedPage = Object.freeze({ headers: Object.freeze({ ...headers }), body, etag, storedAt: at, generation });
      drop(key);
      pages.set(key, page);
      bytes += body.length;
      for (const oldest of pages.keys()) {
        if (bytes <= maxBytes) break;
        drop(oldest);
      }
      return page;
    },
  };
}
