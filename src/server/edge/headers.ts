/**
 * The headers every answer leaves with, whichever lane made it: the three security headers, the
 * default Cache-Control of an answer that says nothing about caching, and the viewer header of an
 * answer shaped for its visitor (the rule is src/server/pwa/viewer.ts's). The one owner: the
 * gate's lanes and the static file server read them here. A later step that changes every answer
 * (compression by Accept-Encoding) goes beside `finishResponse` and `finishRecord`.
 */
import { VIEWER_HEADER, formatViewer } from '../../lib/pwa/viewer.ts';
import { namesViewer, viewerOf } from '../pwa/viewer.ts';
import type { Caller } from './caller.ts';

/** Lower-case names, as node:http writes them; an answer that sets its own value keeps it. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
});

/** What an answer that says nothing about caching is: it may depend on the visitor, so no shared cache keeps it. */
export const DEFAULT_CACHE_CONTROL = 'private, no-cache';

const VIEWER = VIEWER_HEADER.toLowerCase();

/** Who an answer is for: its viewer header names them unless a shared cache may keep it, or who they are could not be checked. */
export interface Audience {
  readonly caller: Caller;
  readonly now: Date;
}

/** The viewer header's value for an answer that names its viewer; null when it names nobody. */
export function viewerValue(names: boolean, audience: Audience | null): string | null {
  // Who could not be checked (an outage) is nobody in particular: the service worker keeps the owner's copies.
  if (!names || !audience || audience.caller.unchecked) return null;
  const { session, credentials } = audience.caller;
  return formatViewer(viewerOf(session, credentials.sessionCookie, audience.now.getTime()));
}

/** The Astro lane: finishes a Response's headers in place (a Response with immutable headers is copied). */
export function finishResponse(response: Response, audience: Audience | null): Response {
  try {
    setAll(response.headers, audience);
    return response;
  } catch {
    // A fetched Response passed through has immutable headers.
    const copy = new Response(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
    setAll(copy.headers, audience);
    return copy;
  }
}

function setAll(headers: Headers, audience: Audience | null): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!headers.has(name)) headers.set(name, value);
  if (!headers.has('cache-control')) headers.set('cache-control', DEFAULT_CACHE_CONTROL);
  const viewer = viewerValue(namesViewer(headers.get('cache-control')), audience);
  if (viewer !== null) headers.set(VIEWER, viewer);
}

/** An answer's headers as the fast lane writes them (lower-case names), finished but for the viewer. */
export interface FinishedRecord {
  readonly headers: Readonly<Record<string, string>>;
  /** False when a shared cache may keep the answer: it names nobody. */
  readonly namesViewer: boolean;
}

/** The fast lane's half of the finish: made once per prepared answer (they never change), per answer otherwise. */
export function finishRecord(source: Iterable<readonly [string, string]>): FinishedRecord {
  const headers: Record<string, string> = { ...SECURITY_HEADERS };
  for (const [name, value] of source) headers[name.toLowerCase()] = value;
  headers['cache-control'] ??= DEFAULT_CACHE_CONTROL;
  return { headers, namesViewer: namesViewer(headers['cache-control']) };
}

/** The viewer header's name as the fast lane writes it. */
export const VIEWER_HEADER_NAME = VIEWER;

/** A finished record with the viewer header of `audience` (a new object: the finished one may be shared). */
export function withViewer(finished: FinishedRecord, audience: Audience | null): Record<string, string> {
  const headers = { ...finished.headers };
  const viewer = viewerValue(finished.namesViewer, audience);
  if (viewer !== null) headers[VIEWER] = viewer;
  return headers;
}
