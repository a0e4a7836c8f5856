/**
 * The access middleware: cookie → `locals.session` → the access policy → next, a redirect, or
 * a JSON 401/403 for API paths. Built from its dependencies so tests can run it against the
 * real emulator and a real SQLite file.
 *
 * When a service the answer needs cannot be reached (the store, or Firebase beyond the outage
 * grace), the visitor is not treated as signed out: `locals.sessionUnchecked` names the service,
 * public paths are served without a session (but what answers for the visitor, /api/session and
 * the viewer header, says "unknown", not "anonymous"), everything else answers 503 (the 503
 * page, or JSON for API paths), never a redirect to /register.
 *
 * In emulator mode (the session verifier's, see runtime.ts) only loopback clients are served:
 * the emulator's tokens are unsigned. The start-up check refuses a non-loopback HOST; this also
 * covers a server reached through a proxy or bound by other means.
 */
import type { APIContext, MiddlewareHandler } from 'astro';
import type { Auth } from 'firebase-admin/auth';
import { decide } from '../../lib/access/policy.ts';
import { isLoopbackHost } from '../../lib/modes.ts';
import { jsonError } from '../http/responses.ts';
import { RETRY_AFTER_S, STORE_READ_TIMEOUT_MS, UnavailableError, storeOutages, unavailableJson, withTimeout } from '../outages.ts';
import type { UserStore } from '../store/users.ts';
import { sessionAllowing, sessionFromCookie } from './currentSession.ts';
import type { Session } from './session.ts';
import { SESSION_COOKIE, sessionVerifier } from './sessions.ts';

export interface AccessDeps {
  readonly auth: () => Auth;
  /** The store holding user records; opened only when a request carries a session cookie. */
  readonly store: () => Promise<UserStore & { listBanners(): Promise<unknown> }>;
  readonly now?: () => Date;
  /** Runs once before the first request is served (e.g. refuse unsafe modes). */
  readonly preflight?: () => void;
}

const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
};

/** The 503 page (src/pages/unavailable.astro). */
export const UNAVAILABLE_ROUTE = '/unavailable';
const STORE_CONSEQUENCE = 'pages and APIs that need it answer 503 (public pages that do not are served)';

export function createAccessMiddleware(deps: AccessDeps): MiddlewareHandler {
  let preflightDone = false;
  /** After a page or endpoint failed: is it because the store cannot be reached? */
  const storeIsDown = async (): Promise<boolean> => {
    try {
      await withTimeout((await deps.store()).listBanners(), 'store probe', STORE_READ_TIMEOUT_MS);
      return false;
    } catch {
      return true;
    }
  };

  return async (context, next) => {
    // Prerendered pages are public and built once; there is no visitor at build time.
    if (context.isPrerendered) return next();
    if (!preflightDone) {
      deps.preflight?.();
      preflightDone = true;
      // Open the store (a first start seeds demo data) before the first request goes on, as
      // every request once did, so the first signed-in visitor does not pay for it. A store
      // that cannot be opened is not fatal here: what needs it answers 503.
      await deps.store().catch(() => undefined);
    }
    if (sessionVerifier(deps.auth()).emulator && !isLoopbackHost(clientAddressOf(context))) {
      return withHeaders(jsonError(403, 'loopback_only', 'This server runs the Firebase Auth emulator and answers loopback clients only.'));
    }
    // The 503 page itself (a rewrite target): it needs no session and must not fail again.
    if (context.routePattern === UNAVAILABLE_ROUTE) {
      context.locals.session ??= null;
      return withHeaders(await next());
    }

    const now = deps.now?.() ?? new Date();
    const isApi = context.url.pathname.startsWith('/api/');
    let session: Session | null = null;
    let unavailable: UnavailableError | null = null;
    try {
      // The store is opened only for a cookie that verifies: anonymous visitors read public
      // pages even while it cannot be opened.
      const cookie = context.cookies.get(SESSION_COOKIE)?.value;
      const read = (options: { readonly fresh: boolean }) => sessionFromCookie({ auth: deps.auth(), store: deps.store }, cookie, now, options);
      session = await sessionAllowing(read, (candidate) => decide(context.url.pathname, candidate, now, context.url.search).kind === 'allow');
      // For pages that refuse on their own (a gated post's full text): the record from the store.
      if (session) context.locals.freshSession = () => read({ fresh: true });
      if (session) storeOutages.answered(now.getTime());
    } catch (error) {
      if (!(error instanceof UnavailableError)) throw error;
      if (error.dependency === 'store') storeOutages.failed(error.cause, now.getTime(), STORE_CONSEQUENCE);
      unavailable = error;
    }
    context.locals.session = session;
    // Not "anonymous": who the visitor is could not be checked.
    if (unavailable) context.locals.sessionUnchecked = unavailable.dependency === 'store' ? 'store' : 'auth';

    // Unknown routes answer 404 to everyone; no redirect reveals or hides them. APIs speak JSON.
    if (context.routePattern === '/404') {
      return isApi ? jsonError(404, 'not_found', 'There is no such endpoint.') : next();
    }

    const decision = decide(context.url.pathname, session, now, context.url.search);
    let response: Response;
    if (unavailable && decision.kind !== 'allow') {
      // Who the visitor is cannot be known: public paths were allowed above, the rest waits.
      response = await unavailableResponse(context, unavailable, isApi);
    } else if (decision.kind === 'allow') {
      try {
        response = await next();
      } catch (error) {
        const cause = error instanceof UnavailableError ? error : (await storeIsDown()) ? new UnavailableError('store', 'The store cannot be reached.', { cause: error }) : null;
        if (!cause) throw error;
        if (cause.dependency === 'store') storeOutages.failed(error, now.getTime(), STORE_CONSEQUENCE);
        response = await unavailableResponse(context, cause, isApi);
      }
    } else if (decision.kind === 'redirect') {
      response = context.redirect(decision.to, 302);
    } else if (isApi) {
      response = jsonError(decision.status, decision.code, decision.message, decision.field);
    } else {
      // A page the visitor may not know about: the same 404 as a page that does not exist.
      response = await context.rewrite('/404');
    }
    return withHeaders(response);
  };
}

/** The client's address as the adapter saw it; '' when it cannot tell (never taken for loopback). */
function clientAddressOf(context: APIContext): string {
  try {
    return context.clientAddress ?? '';
  } catch {
    return '';
  }
}

/** 503 with Retry-After: JSON for API paths, the 503 page otherwise. Logged once per outage by its tracker, not here. */
async function unavailableResponse(context: APIContext, error: UnavailableError, isApi: boolean): Promise<Response> {
  if (isApi) return unavailableJson(error);
  context.locals.unavailable = error.dependency;
  const response = await context.rewrite(UNAVAILABLE_ROUTE);
  response.headers.set('Retry-After', String(RETRY_AFTER_S));
  response.headers.set('Cache-Control', 'no-store');
  return response;
}

function withHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  // Gated pages depend on the visitor: never cache them in shared caches.
  if (!response.headers.has('Cache-Control')) response.headers.set('Cache-Control', 'private, no-cache');
  return response;
}
