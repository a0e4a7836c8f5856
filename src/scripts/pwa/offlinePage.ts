/**
 * The offline page: "Try again" reloads the address that failed (the worker serves this page in
 * its place), and the list names the screens this device can show without a connection.
 */
import { OWNER_ENTRY_PATH, PRIVATE_COPIES_CACHE, PRIVATE_OWNER_CACHE, PUBLIC_CACHE } from '../../lib/pwa/cacheNames.ts';
import { ownerIsCurrent, parseOwner } from '../../lib/pwa/viewer.ts';

document.querySelector('[data-retry]')?.addEventListener('click', () => window.location.reload());

/** The kept pages (not data answers) of one cache, with their titles. */
async function keptPages(cacheName: string): Promise<{ href: string; title: string }[]> {
  if (!(await caches.has(cacheName))) return [];
  const cache = await caches.open(cacheName);
  const pages: { href: string; title: string }[] = [];
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    if (url.origin !== window.location.origin || url.pathname.startsWith('/api/')) continue;
    const copy = await cache.match(request);
    if (!copy || !(copy.headers.get('Content-Type') ?? '').startsWith('text/html')) continue;
    const title = /<title>([^<]*)<\/title>/i.exec(await copy.text())?.[1]?.trim() || url.pathname;
    pages.push({ href: url.pathname + url.search, title: `${title} (${url.pathname}${url.search})` });
  }
  return pages;
}

async function listSavedScreens(): Promise<void> {
  if (typeof caches === 'undefined') return;
  const ownerEntry = (await caches.has(PRIVATE_OWNER_CACHE)) ? await (await caches.open(PRIVATE_OWNER_CACHE)).match(OWNER_ENTRY_PATH) : undefined;
  const owner = ownerEntry ? parseOwner(await ownerEntry.json().catch(() => null)) : null;
  // Gated copies count only while the session they were fetched under lasts (as in the worker).
  const pages = [...(ownerIsCurrent(owner, Date.now()) ? await keptPages(PRIVATE_COPIES_CACHE) : []), ...(await keptPages(PUBLIC_CACHE))];
  const list = document.querySelector('[data-saved-list]');
  const section = document.querySelector<HTMLElement>('[data-saved-screens]');
  if (!list || !section || pages.length === 0) return;
  for (const page of pages.sort((a, b) => a.title.localeCompare(b.title))) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = page.href;
    link.textContent = page.title;
    item.append(link);
    list.append(item);
  }
  section.hidden = false;
}

listSavedScreens().catch((error: unknown) => console.error('Listing the saved screens failed', error));
