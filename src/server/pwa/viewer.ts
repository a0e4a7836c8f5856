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

/** An opaque, stable key of the user: the worker compares keys and never needs the uid. */
export const viewerKey = (uid: string): string => createHash('sha256').update(`polyindex-viewer\0${uid}`).digest('hex').slice(0, 32);

/**
 * The viewer of a request: anonymous without a verified session; otherwise the user's key and
 * when the (already verified) session cookie expires.
 */
export function viewerOf(session: { readonly uid: string } | null | undefined, cookie: string | undefined, now: number): Viewer {
  if (!session) return ANONYMOUS;
  return { signedIn: true, key: viewerKey(session.uid), expiresAt: (cookie ? jwtExpiry(cookie) : null) ?? now + SESSION_MS };
}

/**
 * The X-PolyIndex-Viewer value of an answer with this Cache-Control, or null: an answer a shared
 * cache may keep (`public`, `s-maxage`) names nobody, since another visitor could be handed it.
 * Used by both lanes (this middleware, and the data API's fast lane). An answer whose session
 * could not be checked (an outage) names nobody either: callers leave it out then.
 */
export function viewerHeaderFor(cacheControl: string | null, session: { readonly uid: string } | null | undefined, cookie: string | undefined, now: number): string | null {
  const directives = cacheDirectives(cacheControl);
  if (directives.has('public') || directives.has('s-maxage')) return null;
  return formatViewer(viewerOf(session, cookie, now));
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
