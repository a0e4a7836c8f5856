/**
 * The public-change marker (../publicChanges.ts), written once over the document driver, and the
 * wrapper that marks a change after every write public pages show (posts, banners).
 */
import { randomUUID } from 'node:crypto';
import { PUBLIC_CHANGE_ID, type PublicChangeStore } from '../publicChanges.ts';
import type { BannerAdminStore } from '../bannerAdmin.ts';
import type { PostStore } from '../posts.ts';
import type { PriceStore } from '../prices.ts';
import type { DocumentDriver } from './driver.ts';

export function createPublicChangeStore(docs: DocumentDriver): PublicChangeStore {
  const listeners = new Set<() => void>();
  return {
    async publicChangeToken() {
      return (await docs.get('publicChanges', PUBLIC_CHANGE_ID))?.token ?? null;
    },
    async markPublicChange(now) {
      for (const listener of listeners) listener();
      await docs.transact(async (tx) => {
        tx.put('publicChanges', { id: PUBLIC_CHANGE_ID, token: randomUUID(), at: now.toISOString() });
      });
    },
    onPublicChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The writes public pages show: what a cached page is made of (src/server/pageCache/routes.ts). */
type PublicWrites = Pick<PostStore, 'createPost' | 'updatePost' | 'seedPosts'> & Pick<BannerAdminStore, 'adminAddBanner' | 'adminMoveBanner' | 'adminRemoveBanner'> & Pick<PriceStore, 'replaceBanners'>;
const PUBLIC_WRITES = ['createPost', 'updatePost', 'seedPosts', 'adminAddBanner', 'adminMoveBanner', 'adminRemoveBanner', 'replaceBanners'] as const satisfies readonly (keyof PublicWrites)[];

/**
 * `parts` with each write public pages show followed by `markPublicChange` (committed or not:
 * cheap, and a failed write may have committed). A marker that cannot be written is logged; the
 * other instances then see the change when their pages expire (src/server/pageCache).
 */
export function markingPublicChanges<P extends PublicWrites>(parts: P, changes: PublicChangeStore): P {
  const wrapped: Record<string, unknown> = {};
  for (const name of PUBLIC_WRITES) {
    const write = parts[name] as (...args: unknown[]) => Promise<unknown>;
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await write.apply(parts, args);
      } finally {
        await changes.markPublicChange(new Date()).catch((error: unknown) => console.error('[store] could not record a public change:', error));
      }
    };
  }
  return { ...parts, ...wrapped };
}
