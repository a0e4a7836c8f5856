/**
 * The fast lane (DESIGN §4): a node:http handler that answers the legacy data API before the
 * Astro app sees the request — no Astro pipeline, no Request object, prepared bodies — with the
 * same access policy (`decide`), the same handlers (src/server/api/routes.ts), the same JSON
 * errors and the same headers as the Astro lane (the middleware's security headers and default
 * Cache-Control, the viewer header). Outages are told apart as the access middleware tells them
 * (src/server/auth/accessMiddleware.ts): a visitor whose session cannot be checked, or a handler
 * whose store cannot be reached, gets the JSON 503, never a 401. Anything else returns false and
 * goes on to the static files and Astro.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decide, type Decision } from '../../lib/access/policy.ts';
import { isLoopbackHost } from '../../lib/modes.ts';
import type { RequestHeaders } from '../api/context.ts';
import { matchApiRoute, type ApiRouter } from '../api/routes.ts';
import { sessionAllowing } from '../auth/currentSession.ts';
import type { Session } from '../auth/session.ts';
import type { ApiAnswer, WireAnswer } from '../http/answer.ts';
import { jsonError } from '../http/responses.ts';
import { STORE_READ_TIMEOUT_MS, UnavailableError, storeOutages, unavailableJson, withTimeout } from '../outages.ts';
import { SECURITY_HEADERS } from '../http/securityHeaders.ts';
import { VIEWER_HEADER } from '../../lib/pwa/viewer.ts';
import { formatViewer } from '../../lib/pwa/viewer.ts';
import { namesViewer, viewerOf } from '../pwa/viewer.ts';
import type { Store } from '../store/index.ts';

export interface FastLaneDeps {
  readonly store: () => Promise<Store>;
  /**
   * The verified session of a `__session` cookie value (the middleware's own function,
   * `sessionFromCookie`); throws UnavailableError when Firebase or the store cannot answer.
   */
  readonly session: (cookie: string | undefined, now: Date, options?: { readonly fresh?: boolean }) => Promise<Session | null>;
  readonly now?: () => Date;
  /** The routes it answers (tests); by default the data API's table. */
  readonly router?: ApiRouter;
  /**
   * True in emulator mode: the emulator's tokens are unsigned, so only loopback clients are
   * served (as the access middleware serves them). Asked per request; by default false.
   */
  readonly loopbackOnly?: () => boolean;
}

/** `(req, res) → handled?`: true when the fast lane answers (asynchronously), false to pass the request on. */
export type NodeLane = (req: IncomingMessage, res: ServerResponse) => boolean;

export const SESSION_COOKIE_NAME = '__session';

/** One cookie's value from a Cookie header, decoded as Astro's cookies decode it. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

const headerView = (req: IncomingMessage): RequestHeaders => ({
  get(name) {
    const value = req.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  },
});

/** Who the answer was shaped for, as the Astro lane's viewer middleware says it (the service worker reads it). */
interface Viewer {
  readonly session: Session | null;
  readonly cookie: string | undefined;
  readonly now: Date;
  /** Who the visitor is could not be checked (an outage): the answer names nobody. */
  readonly unchecked: boolean;
}

/** An answer's headers as this lane sends them, before the viewer and the length. */
interface Outgoing {
  readonly headers: Readonly<Record<string, string>>;
  /** False when a shared cache may keep the answer: it names nobody (viewerHeaderFor's rule). */
  readonly namesViewer: boolean;
}

function outgoing(source: Iterable<readonly [string, string]>): Outgoing {
  const headers: Record<string, string> = { ...SECURITY_HEADERS };
  for (const [name, value] of source) headers[name] = value;
  // Gated answers depend on the visitor: never cached by shared caches (as the middleware says).
  headers['cache-control'] ??= 'private, no-cache';
  return { headers, namesViewer: namesViewer(headers['cache-control']) };
}

/** Prepared answers are shared and never change: their outgoing headers are made once each. */
const preparedOutgoing = new WeakMap<WireAnswer, Outgoing>();

async function write(res: ServerResponse, answer: ApiAnswer, viewer: Viewer): Promise<void> {
  let out: Outgoing | undefined;
  let body: Buffer | null;
  if (answer instanceof Response) {
    out = outgoing(answer.headers);
    body = answer.body ? Buffer.from(await answer.arrayBuffer()) : null;
  } else {
    out = preparedOutgoing.get(answer);
    if (!out) preparedOutgoing.set(answer, (out = outgoing(Object.entries(answer.headers))));
    body = answer.body;
  }
  const headers: Record<string, string> = { ...out.headers };
  if (out.namesViewer && !viewer.unchecked) headers[VIEWER_HEADER_NAME] = formatViewer(viewerOf(viewer.session, viewer.cookie, viewer.now.getTime()));
  if (body) headers['content-length'] = String(body.length);
  res.writeHead(answer.status, headers);
  res.end(body);
}

const VIEWER_HEADER_NAME = VIEWER_HEADER.toLowerCase();

const STORE_CONSEQUENCE = 'pages and APIs that need it answer 503 (public pages that do not are served)';

/** After a handler failed: is it because the store cannot be reached? (The middleware's probe.) */
async function storeIsDown(deps: FastLaneDeps): Promise<boolean> {
  try {
    await withTimeout((await deps.store()).listBanners(), 'store probe', STORE_READ_TIMEOUT_MS);
    return false;
  } catch {
    return true;
  }
}

export function createFastLane(deps: FastLaneDeps): NodeLane {
  return (req, res) => {
    if (req.method !== 'GET') return false;
    const raw = req.url ?? '/';
    if (!raw.startsWith('/api/')) return false;
    let url: URL;
    try {
      url = new URL(raw, 'http://fast-lane.invalid');
    } catch {
      return false;
    }
    const match = (deps.router ?? matchApiRoute)(url.pathname);
    if (!match) return false;

    let viewer: Viewer = { session: null, cookie: undefined, now: new Date(), unchecked: false };
    void (async () => {
      const now = deps.now?.() ?? new Date();
      if (deps.loopbackOnly?.() && !isLoopbackHost(req.socket.remoteAddress ?? '')) {
        return write(res, jsonError(403, 'loopback_only', 'This server runs the Firebase Auth emulator and answers loopback clients only.'), viewer);
      }
      const cookie = cookieValue(req.headers.cookie, SESSION_COOKIE_NAME);
      let session: Session | null = null;
      let unavailable: UnavailableError | null = null;
      // The policy's answer for the session it was last asked about (asked once per session).
      let decided: { readonly session: Session | null; readonly decision: Decision } | null = null;
      const decideFor = (candidate: Session | null): Decision => {
        if (decided?.session !== candidate) decided = { session: candidate, decision: decide(url.pathname, candidate, now, url.search) };
        return decided.decision;
      };
      try {
        session = await sessionAllowing(
          (options) => deps.session(cookie, now, options),
          (candidate) => decideFor(candidate).kind === 'allow',
        );
        if (session) storeOutages.answered(now.getTime());
      } catch (error) {
        if (!(error instanceof UnavailableError)) throw error;
        if (error.dependency === 'store') storeOutages.failed(error.cause, now.getTime(), STORE_CONSEQUENCE);
        unavailable = error;
      }
      viewer = { session, cookie, now, unchecked: unavailable !== null };
      const decision = decideFor(session);
      // Who the visitor is cannot be known: a public route goes on, the rest waits (503).
      if (unavailable && decision.kind !== 'allow') return write(res, unavailableJson(unavailable), viewer);
      // API paths never redirect: the policy answers 401/403 for them.
      if (decision.kind !== 'allow') {
        const denied = decision.kind === 'deny' ? jsonError(decision.status, decision.code, decision.message, decision.field) : jsonError(403, 'forbidden', 'Not allowed.');
        return write(res, denied, viewer);
      }
      let response: ApiAnswer;
      try {
        response = await match.route.handler({ url, params: match.params, headers: headerView(req), session, store: await deps.store() });
      } catch (error) {
        const cause = error instanceof UnavailableError ? error : (await storeIsDown(deps)) ? new UnavailableError('store', 'The store cannot be reached.', { cause: error }) : null;
        if (!cause) throw error;
        if (cause.dependency === 'store') storeOutages.failed(error, now.getTime(), STORE_CONSEQUENCE);
        response = unavailableJson(cause);
      }
      return write(res, response, viewer);
    })().catch((error: unknown) => {
      console.error(`[fast-lane] ${req.method} ${raw} failed:`, error);
      if (res.headersSent) return void res.destroy();
      void write(res, jsonError(500, 'internal_error', 'Something went wrong on our side. Please try again.'), viewer);
    });
    return true;
  };
}
