/**
 * Starts the installable app's service worker (production builds only: `astro dev` has none) and
 * shows the "prices as of …" stamp when the worker answers this page's data requests from its
 * offline copies. A page itself served from a copy arrives with the stamp already in its HTML.
 */
import { SERVICE_WORKER_PATH, SERVICE_WORKER_SCOPE } from '../../lib/pwa/addresses.ts';
import { MESSAGE_OFFLINE_COPY } from '../../lib/pwa/cacheNames.ts';
import { STAMP_ATTRIBUTE, fetchedAtOf, offlineStampText } from '../../lib/pwa/offlineStamp.ts';

/** Shows the oldest fetch time of what the page shows (the stamp never claims fresher prices). */
function showStamp(fetchedAt: Date): void {
  const stamp = document.querySelector<HTMLElement>(`[${STAMP_ATTRIBUTE}]`);
  if (!stamp) return;
  const shown = fetchedAtOf(stamp.dataset['fetchedAt']);
  if (shown && shown <= fetchedAt) return;
  stamp.dataset['fetchedAt'] = fetchedAt.toISOString();
  stamp.textContent = offlineStampText(fetchedAt);
  stamp.hidden = false;
}

if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data as { type?: unknown; fetchedAt?: unknown } | null;
    if (data?.type !== MESSAGE_OFFLINE_COPY || typeof data.fetchedAt !== 'string') return;
    const fetchedAt = fetchedAtOf(data.fetchedAt);
    if (fetchedAt) showStamp(fetchedAt);
  });
  navigator.serviceWorker.register(SERVICE_WORKER_PATH, { scope: SERVICE_WORKER_SCOPE }).catch((error: unknown) => {
    console.error('The offline app could not start', error);
  });
}
