/**
 * The installable app's fixed addresses, as plain constants: the page script that registers the
 * worker imports these alone (appShell.ts, which re-exports them, also holds the manifest).
 */

export const MANIFEST_PATH = '/manifest.webmanifest';
/** At the site's root, so its default scope is the whole site (no `Service-Worker-Allowed`). */
export const SERVICE_WORKER_PATH = '/sw.js';
export const SERVICE_WORKER_SCOPE = '/';
/** What a navigation shows when it fails offline and no copy of the page was kept. */
export const OFFLINE_PATH = '/offline';
