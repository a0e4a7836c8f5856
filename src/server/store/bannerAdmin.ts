/**
 * The audited banner writes of the admin area: add (appended last), move up or down, remove.
 * Each write records its audit entry (target `banner:{id}`) in its own transaction.
 */
import type { AuditActor, NewAuditEntry } from './audit.ts';
import type { Banner } from './prices.ts';

export const bannerTarget = (id: string): string => `banner:${id}`;

export type BannerEditResult =
  | { readonly kind: 'written'; readonly banners: readonly Banner[] }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'not_found' };

interface Who {
  readonly actor: AuditActor;
  readonly now: Date;
}

export interface BannerAdminStore {
  adminAddBanner(input: Who & { readonly banner: Omit<Banner, 'order'> }): Promise<BannerEditResult>;
  /** Swaps the banner with its neighbour; `unchanged` at the end of the list. */
  adminMoveBanner(input: Who & { readonly id: string; readonly direction: 'up' | 'down' }): Promise<BannerEditResult>;
  /** Removes the banner; returns the list after. The caller removes its image file. */
  adminRemoveBanner(input: Who & { readonly id: string }): Promise<BannerEditResult & { readonly removed?: Banner }>;
}

/** The audit entries of the banner writes, the same from every adapter. */
export const bannerAuditEntry = {
  add: (banner: Omit<Banner, 'order'>, order: number, { actor, now }: Who): NewAuditEntry => ({
    at: now.toISOString(),
    actor,
    action: 'banner.add',
    target: bannerTarget(banner.id),
    before: null,
    after: { ...banner, order },
  }),
  /** `from` and `to` are 0-based positions; the lists are the ids before and after. */
  move: (id: string, from: number, to: number, before: readonly Banner[], after: readonly Banner[], { actor, now }: Who): NewAuditEntry => ({
    at: now.toISOString(),
    actor,
    action: 'banner.move',
    target: bannerTarget(id),
    before: { order: from + 1, list: before.map((b) => b.id) },
    after: { order: to + 1, list: after.map((b) => b.id) },
  }),
  remove: (removed: Banner, { actor, now }: Who): NewAuditEntry => ({
    at: now.toISOString(),
    actor,
    action: 'banner.remove',
    target: bannerTarget(removed.id),
    before: { ...removed },
    after: null,
  }),
};
