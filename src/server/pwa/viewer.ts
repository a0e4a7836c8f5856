/**
 * Names the viewer of every answer shaped per visitor (X-PolyIndex-Viewer, see lib/pwa/viewer.ts),
 * so the service worker keeps gated copies for one user only and stops serving them when that
 * user's session ends or someone else (or nobody) is signed in.
 */
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'astro';
import { cacheDirectives } from '../../lib/pwa/cacheRules.ts';
import { ANONYMOUS, VIEWER_HEADER, formatViewer, jwtExpiry, type Viewer } from '../../lib/pwa/viewer.ts';
import { SESSION_COOKIE, SESSION_MS } from '../auth/sessions.ts';

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

/**
 * The X-PolyIndex-Viewer value of an answer with this Cache-Control, or null: an answer a shared
 * cache may keep (`public`, `s-maxage`) names nobody, since another visitor could be handed it.
 * Used by both lanes (this middleware, and the data API's fast lane). An answer whose session
 * could not be checked (an outage) names nobody either: callers leave it out then.
 */
export function viewerHeaderFor(cacheControl: string | null, session: Parameters<typeof viewerOf>[0], cookie: string | undefined, now: number): string | null {
  return namesViewer(cacheControl) ? formatViewer(viewerOf(session, cookie, now)) : null;
}

/** False for an answer a shared cache may keep (`public`, `s-maxage`): it names nobody. */
export function namesViewer(cacheControl: string | null): boolean {
  const directives = cacheDirectives(cacheControl);
  return !(directives.has('public') || directives.has('s-maxage'));
}

/**
 * Runs around the access middleware, which sets `locals.session` and the default Cache-Control.
 * An answer whose session could not be checked (`locals.sessionUnchecked`) names nobody.
 */
export const viewerMiddleware: MiddlewareHandler = async (context, next) => {
  const response = await next();
  // Who could not be checked (an outage) is nobody in particular: the worker keeps the owner's copies.
  if (context.isPrerendered || context.locals.sessionUnchecked) return response;
  const viewer = viewerHeaderFor(response.headers.get('Cache-Control'), context.locals.session, context.cookies.get(SESSION_COOKIE)?.value, Date.now());
  if (viewer === null) return response;
  try {
    response.headers.set(VIEWER_HEADER, viewer);
  } catch {
    // A response with immutable headers (a fetched one passed through) simply names nobody.
  }
  return response;
};
