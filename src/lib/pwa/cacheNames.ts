/**
 * The names the service worker and the pages share: caches, the owner entry, messages. No imports,
 * so a page script that only clears caches does not pull in the access policy.
 */

/** Every cache the app makes starts with this (Workbox's precache adds its own name after it). */
export const CACHE_PREFIX = 'polyindex';
/** Public pages and public API answers: anyone on the device may read them. */
export const PUBLIC_CACHE = 'polyindex-public-v1';
/** Caches named with this prefix hold one viewer's gated copies; sign-out deletes all of them. */
export const PRIVATE_CACHE_PREFIX = 'polyindex-private-';
export const PRIVATE_COPIES_CACHE = `${PRIVATE_CACHE_PREFIX}copies-v1`;
/** Who the private copies belong to (one entry at OWNER_ENTRY_PATH, never fetched from the server). */
export const PRIVATE_OWNER_CACHE = `${PRIVATE_CACHE_PREFIX}owner-v1`;
export const OWNER_ENTRY_PATH = '/__polyindex/offline-owner';

/** How many pages and data answers each runtime cache keeps (the least recently used go first). */
export const PRIVATE_COPIES_MAX = 60;
export const PUBLIC_COPIES_MAX = 60;

export const isPrivateCacheName = (name: string): boolean => name.startsWith(PRIVATE_CACHE_PREFIX);

/** Messages between the pages and the service worker. */
export const MESSAGE_FORGET_PRIVATE = 'polyindex:forget-private-copies';
export const MESSAGE_OFFLINE_COPY = 'polyindex:offline-copy';
