/**
 * Forgets this device's private offline copies: called by the sign-out control. Deletes the
 * private caches from the page itself (works even before a service worker controls it) and tells
 * the worker, which also refuses answers to requests sent before this moment. Never throws:
 * sign-out must go on whatever the caches do.
 */
import { MESSAGE_FORGET_PRIVATE, isPrivateCacheName } from '../../lib/pwa/cacheNames.ts';

export async function forgetOfflineCopies(): Promise<void> {
  try {
    navigator.serviceWorker?.controller?.postMessage({ type: MESSAGE_FORGET_PRIVATE });
    if (typeof caches === 'undefined') return;
    const names = await caches.keys();
    await Promise.all(names.filter(isPrivateCacheName).map((name) => caches.delete(name)));
  } catch (error) {
    console.error('Forgetting the offline copies failed', error);
  }
}
