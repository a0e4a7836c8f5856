/**
 * The access middleware: cookie → `locals.session` → the access policy → next, a redirect, or
 * a JSON 401/403 for API paths. Built from its dependencies so tests can run it against the
 * real emulator and a real SQLite file.
 */
import type { MiddlewareHandler } from 'astro';
import type { Auth } from 'firebase-admin/auth';
import { decide } from '../../lib/access/policy.ts';
import { jsonError } from '../http/responses.ts';
import type { UserStore } from '../store/users.ts';
import { sessionFromCookie } from './currentSession.ts';
import { SESSION_COOKIE } from './sessions.ts';

export interface AccessDeps {
  readonly auth: () => Auth;
  readonly store: () => Promise<UserStore>;
  readonly now?: () => Date;
  /** Runs once before the first request is served (e.g. refuse unsafe modes). */
  readonly preflight?: () => void;
}

const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
};

export function createAccessMiddleware(deps: AccessDeps): MiddlewareHandler {
  let preflightDone = false;
  return async (context, next) => {
    // Prerendered pages are public and built once; there is no visitor at build time.
    if (context.isPrerendered) return next();
    if (!preflightDone) {
      deps.preflight?.();
      preflightDone = true;
    }

    const now = deps.now?.() ?? new Date();
    const session = await sessionFromCookie(
      { auth: deps.auth(), store: await deps.store() },
      context.cookies.get(SESSION_COOKIE)?.value,
      now,
    );
    context.locals.session = session;

    // Unknown routes answer 404 to everyone; no redirect reveals or hides them. APIs speak JSON.
    if (context.routePattern === '/404') {
      return context.url.pathname.startsWith('/api/') ? jsonError(404, 'not_found', 'There is no such endpoint.') : next();
    }

    const decision = decide(context.url.pathname, session, now, context.url.search);
    let response: Response;
    if (decision.kind === 'allow') {
      response = await next();
    } else if (decision.kind === 'redirect') {
      response = context.redirect(decision.to, 302);
    } else if (context.url.pathname.startsWith('/api/')) {
      response = jsonError(decision.status, decision.code, decision.message);
    } else {
      // A page the visitor may not know about: the same 404 as a page that does not exist.
      response = await context.rewrite('/404');
    }
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      if (!response.headers.has(name)) response.headers.set(name, value);
    }
    // Gated pages depend on the visitor: never cache them in shared caches.
    if (!response.headers.has('Cache-Control')) response.headers.set('Cache-Control', 'private, no-cache');
    return response;
  };
}
