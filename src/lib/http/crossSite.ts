/**
 * The cross-site form check of Astro's `security.checkOrigin` (astro/dist/core/app/origin-check.js,
 * Astro 7.3), here because Astro's has no per-route exemption and one route needs one: RFC 8058's
 * one-click unsubscribe, which a mail client POSTs with no Origin header. checkOrigin is off in
 * astro.config.mjs and src/middleware.ts runs this first instead (docs/decisions.md).
 *
 * The rule, as Astro's: a request with an unsafe method is refused unless its Origin is the
 * request's own origin, when its content type is form-like (what a cross-site HTML form can send)
 * or missing. JSON and other non-form bodies pass here (a browser cannot send them cross-site
 * without CORS; the endpoints also check Origin themselves, src/server/http/responses.ts).
 */
import { ONE_CLICK_UNSUBSCRIBE_PATH } from '../delivery/paths.ts';
import { normalizePath } from '../access/publicPaths.ts';

/** What an HTML form can send (Astro's list). */
export const FORM_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'] as const;
const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

export const hasFormLikeContentType = (contentType: string | null): boolean =>
  contentType !== null && FORM_CONTENT_TYPES.some((type) => contentType.toLowerCase().includes(type));

export interface CrossSiteRequest {
  readonly method: string;
  readonly headers: Headers;
}

/** Astro's isForbiddenCrossOriginRequest, unchanged (prerendered pages are the caller's concern). */
export function isForbiddenCrossOrigin(request: CrossSiteRequest, url: URL): boolean {
  if (SAFE_METHODS.includes(request.method)) return false;
  const sameOrigin = request.headers.get('origin') === url.origin;
  if (request.headers.has('content-type')) return hasFormLikeContentType(request.headers.get('content-type')) && !sameOrigin;
  return !sameOrigin;
}

/**
 * The one exemption: a POST to the one-click unsubscribe endpoint with the body RFC 8058 fixes
 * (form-encoded; multipart is also allowed by the RFC). Safe: that endpoint reads no cookie, and
 * its only authority is the HMAC-signed token in its URL.
 */
export function isOneClickUnsubscribe(request: CrossSiteRequest, url: URL): boolean {
  if (request.method !== 'POST' || normalizePath(url.pathname) !== ONE_CLICK_UNSUBSCRIBE_PATH) return false;
  const type = request.headers.get('content-type')?.toLowerCase() ?? '';
  return type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data');
}

/** True when the request must be refused (403) before anything else runs. */
export const isRefusedCrossSite = (request: CrossSiteRequest, url: URL): boolean => isForbiddenCrossOrigin(request, url) && !isOneClickUnsubscribe(request, url);
