/**
 * The audited banner writes of the admin area: add (appended last), move up or down, remove.
 * Each write records its audit entry (target `banner:{id}`) in its own transaction.
 */
import type { AuditActor } from './audit.ts';
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
