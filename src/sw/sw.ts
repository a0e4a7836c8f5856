/**
 * The service worker of the installable app (Workbox). Bundled and given its precache list when
 * the site is built (src/integrations/serviceWorker.ts); served at /sw.js with scope /.
 *
 * - Precache: the hashed /_astro/ scripts and styles, the offline page, the manifest and icons.
 * - Public pages and public API answers: network first, a copy kept for reading offline.
 * - Gated price screens and their data answers: network first, a copy kept for ONE viewer (the
 *   owner, named by the server's X-PolyIndex-Viewer header), served offline (or in place of a
 *   503: the site is down) only while that viewer's session has not expired, with a "prices as
 *   of …" stamp. Sign-in, sign-out (here, in another tab, or a 401 that says the session is
 *   gone) and another viewer forget them.
 * - Never: sign-in/out, payments, the admin area, the session answer, `no-store` answers.
 */
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { registerRoute, setCatchHandler } from 'workbox-routing';
import { NetworkFirst, NetworkOnly } from 'workbox-strategies';
import { OFFLINE_PATH } from '../lib/pwa/appShell.ts';
import {
  CACHE_PREFIX,
  MESSAGE_FORGET_PRIVATE,
  MESSAGE_OFFLINE_COPY,
  OWNER_ENTRY_PATH,
  PRIVATE_COPIES_CACHE,
  PRIVATE_COPIES_MAX,
  PRIVATE_OWNER_CACHE,
  PUBLIC_CACHE,
  PUBLIC_COPIES_MAX,
  isPrivateCacheName,
} from '../lib/pwa/cacheNames.ts';
import { SESSION_ANSWER_PATH, SESSION_CHANGE_PATHS, cacheKindOf, mayKeep, outageAnswer, saysSignedOut, type CacheKind } from '../lib/pwa/cacheRules.ts';
import { FETCHED_AT_HEADER, fetchedAtOf, withOfflineStamp } from '../lib/pwa/offlineStamp.ts';
import { VIEWER_HEADER, ownerIsCurrent, parseOwner, parseViewer, type Owner } from '../lib/pwa/viewer.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

const ownerUrl = new URL(OWNER_ENTRY_PATH, self.location.origin).href;

/**
 * Answers to requests sent before this instant (ms) say nothing about the current viewer and are
 * never kept: set when the private copies are forgotten. Kept in memory: a request in flight
 * keeps the worker alive, so a restart loses nothing that matters.
 */
let forgottenAt = 0;

/** Owner changes and their checks run one at a time, so two answers cannot interleave them. */
let queue: Promise<unknown> = Promise.resolve();
function serially<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

async function readOwner(): Promise<Owner | null> {
  // caches.match, not caches.open: reading must not create the owner's cache for an anonymous visitor.
  const entry = await caches.match(ownerUrl, { cacheName: PRIVATE_OWNER_CACHE });
  return entry ? parseOwner(await entry.json().catch(() => null)) : null;
}

async function writeOwner(owner: Owner): Promise<void> {
  const body = JSON.stringify(owner);
  await (await caches.open(PRIVATE_OWNER_CACHE)).put(ownerUrl, new Response(body, { headers: { 'Content-Type': 'application/json' } }));
}

/** Deletes every private cache (copies and owner); answers to earlier requests are not kept. */
async function forgetPrivateCopies(since: number): Promise<void> {
  forgottenAt = Math.max(forgottenAt, since);
  const names = await caches.keys();
  await Promise.all(names.filter(isPrivateCacheName).map((name) => caches.delete(name)));
}

/** What an answer says about who is signed in on this device. */
async function observeViewer(response: Response, kind: CacheKind, startedAt: number): Promise<void> {
  // An answer to a request sent before a sign-in or sign-out speaks for the old session.
  if (startedAt < forgottenAt) return;
  const viewer = parseViewer(response.headers.get(VIEWER_HEADER));
  if (saysSignedOut(kind, response.status) || viewer?.signedIn === false) {
    if (await readOwner()) await forgetPrivateCopies(Date.now());
    return;
  }
  if (!viewer) return; // a static page, or a data answer from the fast lane: it names nobody
  const owner = await readOwner();
  if (owner?.key === viewer.key) {
    // A new sign-in of the same user moves the expiry.
    if (owner.expiresAt !== viewer.expiresAt && startedAt >= owner.since) await writeOwner({ ...owner, expiresAt: viewer.expiresAt });
    return;
  }
  if (owner && startedAt < owner.since) return; // a late answer from before the current owner
  await forgetPrivateCopies(startedAt);
  await writeOwner({ key: viewer.key, expiresAt: viewer.expiresAt, since: startedAt });
}

/** A copy to keep: the answer with the time it was fetched. */
async function stamped(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.set(FETCHED_AT_HEADER, new Date().toISOString());
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
}

/**
 * A kept copy on its way to the page: a page gets the stamp in its HTML; a data answer is
 * announced to the page that asked, which shows the stamp (src/scripts/pwa/register.ts).
 */
async function presented(copy: Response, event: ExtendableEvent): Promise<Response> {
  const fetchedAt = fetchedAtOf(copy.headers.get(FETCHED_AT_HEADER)) ?? new Date(0);
  if ((copy.headers.get('Content-Type') ?? '').startsWith('text/html')) {
    const headers = new Headers(copy.headers);
    headers.delete('Content-Length');
    return new Response(withOfflineStamp(await copy.text(), fetchedAt), { status: copy.status, statusText: copy.statusText, headers });
  }
  const clientId = event instanceof FetchEvent ? event.clientId : '';
  const client = clientId ? await self.clients.get(clientId) : undefined;
  client?.postMessage({ type: MESSAGE_OFFLINE_COPY, fetchedAt: fetchedAt.toISOString() });
  return copy;
}

type State = { startedAt?: number; keptFor?: string; checkedAt?: number; fromCopy?: boolean };
const stateOf = (state: unknown): State => (state ?? {}) as State;

/** Copies of public pages and answers: kept unless the answer refuses; read by anyone offline. */
const publicCopies: WorkboxPlugin = {
  handlerWillStart: async ({ state }) => {
    stateOf(state).startedAt = Date.now();
  },
  fetchDidSucceed: async ({ response, state }) => {
    await serially(() => observeViewer(response, 'public', stateOf(state).startedAt ?? 0));
    return response;
  },
  cacheWillUpdate: async ({ response }) =>
    mayKeep('public', response.status, response.headers.get('Cache-Control')) ? stamped(response) : null,
  cachedResponseWillBeUsed: async ({ cachedResponse, event }) => (cachedResponse ? presented(cachedResponse, event) : null),
};

/**
 * A gated page answered with a redirect: the visitor may not see it (any more). A redirect shows
 * the worker no headers, so it asks the session answer who the viewer is now; that answer forgets
 * the copies if nobody (or somebody else) is signed in.
 */
async function askWhoIsSignedIn(): Promise<void> {
  const startedAt = Date.now();
  const response = await fetch(SESSION_ANSWER_PATH, { credentials: 'same-origin', headers: { Accept: 'application/json' } }).catch(() => null);
  if (response) await serially(() => observeViewer(response, 'never', startedAt));
}

// Vary: Cookie on gated answers: the cookie is never part of a worker's request, so ignore it.
const matchOptions: CacheQueryOptions = { ignoreVary: true };

/** The owner's kept copy of a gated request, presented as offline; null when there is none to show. */
async function keptCopy(request: Request, event: ExtendableEvent): Promise<Response | null> {
  const owner = await serially(readOwner);
  if (!ownerIsCurrent(owner, Date.now())) return null;
  const copy = await caches.match(request, { cacheName: PRIVATE_COPIES_CACHE, ...matchOptions });
  return copy ? presented(copy, event) : null;
}

/** Copies of gated screens and data answers: kept for the owner only, read only while its session lasts. */
const privateCopies: WorkboxPlugin = {
  handlerWillStart: async ({ state }) => {
    stateOf(state).startedAt = Date.now();
  },
  fetchDidSucceed: async ({ request, response, event, state }) => {
    if (response.type === 'opaqueredirect') {
      event.waitUntil(askWhoIsSignedIn());
      return response;
    }
    await serially(() => observeViewer(response, 'private', stateOf(state).startedAt ?? 0));
    if (!outageAnswer('private', response.status)) return response;
    // The site is down for the moment: the copy reads as it would offline (and is not kept again).
    const copy = await keptCopy(request, event);
    if (!copy) return response;
    stateOf(state).fromCopy = true;
    return copy;
  },
  cacheWillUpdate: async ({ response, state }) =>
    serially(async () => {
      const s = stateOf(state);
      const startedAt = s.startedAt ?? 0;
      if (s.fromCopy) return null;
      if (!mayKeep('private', response.status, response.headers.get('Cache-Control')) || startedAt < forgottenAt) return null;
      const owner = await readOwner();
      if (!ownerIsCurrent(owner, Date.now()) || startedAt < owner.since) return null;
      // An answer that names a viewer must name the owner; one that names nobody (the data fast
      // lane) was asked for by the owner's page, since the owner is whoever last answered.
      const viewer = parseViewer(response.headers.get(VIEWER_HEADER));
      if (viewer && (!viewer.signedIn || viewer.key !== owner.key)) return null;
      s.keptFor = owner.key;
      s.checkedAt = Date.now();
      return stamped(response);
    }),
  // The owner may have changed between the check and the write: then the copy goes again.
  cacheDidUpdate: async ({ cacheName, request, state }) =>
    serially(async () => {
      const s = stateOf(state);
      const owner = await readOwner();
      if (owner?.key === s.keptFor && (s.checkedAt ?? 0) >= forgottenAt) return;
      await (await caches.open(cacheName)).delete(request);
    }),
  cachedResponseWillBeUsed: async ({ cachedResponse, event }) => {
    const owner = await serially(readOwner);
    if (!ownerIsCurrent(owner, Date.now())) {
      // The session these copies were fetched under has ended: nobody reads them again.
      if (owner) await serially(() => forgetPrivateCopies(Date.now()));
      return null;
    }
    return cachedResponse ? presented(cachedResponse, event) : null;
  },
};

const publicStrategy = new NetworkFirst({
  cacheName: PUBLIC_CACHE,
  matchOptions,
  plugins: [publicCopies, new ExpirationPlugin({ maxEntries: PUBLIC_COPIES_MAX, purgeOnQuotaError: true })],
});
const privateStrategy = new NetworkFirst({
  cacheName: PRIVATE_COPIES_CACHE,
  matchOptions,
  plugins: [privateCopies, new ExpirationPlugin({ maxEntries: PRIVATE_COPIES_MAX, purgeOnQuotaError: true })],
});

// Sign-in and sign-out forget the private copies as the request leaves (whatever it answers).
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && SESSION_CHANGE_PATHS.includes(url.pathname),
  new NetworkOnly({
    plugins: [
      {
        requestWillFetch: async ({ request }) => {
          await serially(() => forgetPrivateCopies(Date.now()));
          return request;
        },
      },
    ],
  }),
  'POST',
);

// The session answer (asked by every full page) names the viewer: watched, never kept.
const watchViewer: WorkboxPlugin = {
  handlerWillStart: async ({ state }) => {
    stateOf(state).startedAt = Date.now();
  },
  fetchDidSucceed: async ({ response, state }) => {
    await serially(() => observeViewer(response, 'never', stateOf(state).startedAt ?? 0));
    return response;
  },
};
registerRoute(({ url, sameOrigin }) => sameOrigin && url.pathname === SESSION_ANSWER_PATH, new NetworkOnly({ plugins: [watchViewer] }));

/** Pages and API answers: the requests whose copies make a screen readable offline. */
const isScreenOrData = (request: Request, url: URL): boolean => request.mode === 'navigate' || url.pathname.startsWith('/api/');

registerRoute(({ request, url, sameOrigin }) => sameOrigin && isScreenOrData(request, url) && cacheKindOf(url.pathname) === 'public', publicStrategy);
registerRoute(({ request, url, sameOrigin }) => sameOrigin && isScreenOrData(request, url) && cacheKindOf(url.pathname) === 'private', privateStrategy);
// Any other page (account, admin): straight to the network, so that offline it too gets the offline page.
registerRoute(({ request, sameOrigin }) => sameOrigin && request.mode === 'navigate', new NetworkOnly());

// Offline with no copy: a page shows the offline page; anything else fails as the network would.
setCatchHandler(async ({ request }) => (request.mode === 'navigate' ? ((await matchPrecache(OFFLINE_PATH)) ?? Response.error()) : Response.error()));

// Caches of an earlier version of this worker's runtime rules go when it takes over.
const CURRENT_RUNTIME_CACHES = new Set([PUBLIC_CACHE, PRIVATE_COPIES_CACHE, PRIVATE_OWNER_CACHE]);
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => names.filter((name) => name.startsWith(`${CACHE_PREFIX}-`) && !CURRENT_RUNTIME_CACHES.has(name)))
      .then((stale) => Promise.all(stale.map((name) => caches.delete(name)))),
  );
});

// A page that signs out (src/scripts/pwa/forget.ts) also tells the worker directly.
self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === MESSAGE_FORGET_PRIVATE) {
    event.waitUntil(serially(() => forgetPrivateCopies(Date.now())));
  }
});
