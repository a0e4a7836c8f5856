/**
 * Who an answer shaped per visitor is for (X-PolyIndex-Viewer, see lib/pwa/viewer.ts), so the
 * service worker keeps gated copies for one user only and stops serving them when that user's
 * session ends or someone else (or nobody) is signed in. The request gate names the viewer of
 * every answer in both lanes (src/server/edge/headers.ts) by these rules.
 */
import { createHash } from 'node:crypto';
import { cacheDirectives } from '../../lib/pwa/cacheRules.ts';
import { ANONYMOUS, jwtExpiry, type Viewer } from '../../lib/pwa/viewer.ts';
import { SESSION_MS } from '../auth/sessions.ts';

/** Keys of recent users: a gated answer names its viewer on every request (at most this many kept). */
const MAX_KEYS = 10_000;
const keys = new Map<string, string>();

/** An opaque, stable key of the user: the worker compares keys and never needs the uid. */
export function viewerKey(uid: string): string {
  let key = keys.get(uid);
  if (key === undefined) {
    key = createHash('sha256').update(`polyindex-viewer\0${uid}`).digest('hex').slice(0, 32);
    if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value!);
    keys.set(uid, key);
  }
  return key;
}

/**
 * The viewer of a request: anonymous without a verified session; otherwise the user's key and
 * when the (already verified) session cookie expires: as verification found it, else read from
 * the cookie.
 */
export function viewerOf(session: { readonly uid: string; readonly expiresAt?: number | undefined } | null | undefined, cookie: string | undefined, now: number): Viewer {
  if (!session) return ANONYMOUS;
  return { signedIn: true, key: viewerKey(session.uid), expiresAt: session.expiresAt ?? (cookie ? jwtExpiry(cookie) : null) ?? now + SESSION_MS };
}

/** False for an answer a shared cache may keep (`public`, `s-maxage`): it names nobody. */
export function namesViewer(cacheControl: string | null): boolean {
  const directives = cacheDirectives(cacheControl);
  return !(directives.has('public') || directives.has('s-maxage'));
}
