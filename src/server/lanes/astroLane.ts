/**
 * The Astro lane of the request gate (src/server/edge/gate.ts): the middleware in front of every
 * page and every endpoint the fast lane does not answer. It translates Astro's context into the
 * gate's terms and the gate's verdict into Astro's answers:
 *
 *   refused by the screen   → the JSON error (400 bad Host, 403 loopback only, 421 misdirected)
 *   serve                   → the page or endpoint (a failure the store explains → 503)
 *   redirect                → 302 (sign in, subscribe)
 *   hide                    → the 404 page (a page the visitor may not know about)
 *   refuse                  → the JSON 401/403 of an API path
 *   unavailable             → 503: the JSON for API paths, the 503 page for pages
 *
 * `locals.session` is the caller's session; when it could not be checked, `locals.sessionUnchecked`
 * names the service (public paths are then served as to an anonymous visitor, but /api/session and
 * the viewer header say "unknown", not "anonymous"). Built from its dependencies so tests run it
 * against the real emulator and a real SQLite file.
 */
import type { APIContext, MiddlewareHandler } from 'astro';
import type { Auth } from 'firebase-admin/auth';
import { sessionFromCookie } from '../auth/currentSession.ts';
import { sessionVerifier } from '../auth/sessions.ts';
import { credentialsOf } from '../edge/caller.ts';
import { createGate, refusalResponse, type StoreProbe } from '../edge/gate.ts';
import { apiKeyReader } from '../feed/keys.ts';
import type { ApiKeyStore } from '../store/apiKeys.ts';
import { finishResponse, type Audience } from '../edge/headers.ts';
import { jsonError } from '../http/responses.ts';
import { admitToPageCache } from '../pageCache/lane.ts';
import { RETRY_AFTER_S, unavailableJson, type UnavailableError } from '../outages.ts';
import { servedPort as configuredPort } from '../runtime.ts';
import type { SeatStore } from '../store/seats.ts';
import type { UserStore } from '../store/users.ts';

export interface AccessDeps {
  readonly auth: () => Auth;
  /** The store holding user records; opened only when a request carries a session cookie that verifies. */
  readonly store: () => Promise<UserStore & Pick<ApiKeyStore, 'findApiKey'> & Pick<SeatStore, 'findSeat'> & StoreProbe>;
  readonly now?: () => Date;
  /** Runs once before the first request is served (e.g. refuse unsafe modes). */
  readonly preflight?: () => void;
  /** Loopback-only mode (see src/server/edge/screen.ts); by default the session verifier's emulator mode. */
  readonly loopbackOnly?: () => boolean;
  /**
   * The port the site is served on, for the Host check. Astro's context does not carry the
   * connection: the configured PORT (which the server entry listens on, and `astro dev`'s 4321).
   */
  readonly servedPort?: () => number;
}

/** The 503 page (src/pages/unavailable.astro). */
export const UNAVAILABLE_ROUTE = '/unavailable';

export function createAccessMiddleware(deps: AccessDeps): MiddlewareHandler {
  const gate = createGate({
    // The store is opened only for a cookie that verifies: anonymous visitors read public pages even while it cannot be opened.
    session: (cookie, now, options) => sessionFromCookie({ auth: deps.auth(), store: deps.store }, cookie, now, options),
    apiKey: apiKeyReader(deps.store),
    store: deps.store,
    now: deps.now,
    preflight: deps.preflight,
    loopbackOnly: deps.loopbackOnly ?? (() => sessionVerifier(deps.auth()).emulator),
  });
  const servedPort = deps.servedPort ?? configuredPort;

  return async (context, next) => {
    // Prerendered pages are public and built once; there is no visitor at build time.
    if (context.isPrerendered) return next();
    await gate.ready();
    const refusal = gate.screen({
      method: context.request.method,
      host: context.request.headers.get('host') ?? undefined,
      clientAddress: clientAddressOf(context),
      servedPort: servedPort(),
    });
    if (refusal) return finishResponse(refusalResponse(refusal), null);
    // The 503 page itself (a rewrite target): it needs no session and must not fail again.
    if (context.routePattern === UNAVAILABLE_ROUTE) {
      context.locals.session ??= null;
      return finishResponse(await next(), null);
    }

    const passage = await gate.admit({
      pathname: context.url.pathname,
      search: context.url.search,
      credentials: credentialsOf(
        { cookie: (name) => context.cookies.get(name)?.value },
        { method: context.request.method, pathname: context.url.pathname, search: context.url.search, authorization: context.request.headers.get('authorization') },
      ),
    });
    const { caller, verdict } = passage;
    context.locals.session = caller.session;
    // For pages that refuse on their own (a gated post's full text): the record from the store.
    if (caller.session) context.locals.freshSession = caller.fresh;
    // Not "anonymous": who the visitor is could not be checked.
    if (caller.unchecked) context.locals.sessionUnchecked = caller.unchecked.dependency === 'store' ? 'store' : 'auth';
    const audience: Audience = { caller, now: passage.now };

    // Unknown routes answer 404 to everyone; no redirect reveals or hides them. APIs speak JSON.
    if (context.routePattern === '/404') {
      return finishResponse(passage.api ? jsonError(404, 'not_found', 'There is no such endpoint.') : await next(), audience);
    }

    let response: Response;
    switch (verdict.kind) {
      case 'serve':
        // A public page rendered for a caller without a session may be kept (src/server/pageCache).
        admitToPageCache(context.request, passage, context.url.pathname);
        try {
          response = await next();
        } catch (error) {
          response = await unavailable(context, await gate.explain(error, passage), passage.api);
        }
        break;
      case 'unavailable':
        response = await unavailable(context, verdict.error, passage.api);
        break;
      case 'redirect':
        response = context.redirect(verdict.to, 302);
        break;
      case 'refuse':
        response = refusalResponse(verdict.refusal);
        break;
      case 'hide':
        response = await context.rewrite('/404');
        break;
    }
    return finishResponse(response, audience);
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
async function unavailable(context: APIContext, error: UnavailableError, api: boolean): Promise<Response> {
  if (api) return unavailableJson(error);
  context.locals.unavailable = error.dependency;
  const response = await context.rewrite(UNAVAILABLE_ROUTE);
  response.headers.set('Retry-After', String(RETRY_AFTER_S));
  response.headers.set('Cache-Control', 'no-store');
  return response;
}
