/**
 * The request gate: the one pipeline both lanes run (the node:http fast lane,
 * src/server/lanes/fastLane.ts, and the Astro lane, src/server/lanes/astroLane.ts), so every fact
 * of "may this request go on, and as whom" has one owner:
 *
 *   screen   method, Host and, in loopback-only mode, the client (./screen.ts)
 *   admit    who is calling (./caller.ts) → the access policy (`decide`) → the verdict, with the
 *            outage rule: a caller who could not be checked is not anonymous (503, never a 401)
 *   explain  a handler that threw: the store outage that explains it (503), or the error (a bug)
 *   finish   the headers every answer leaves with (./headers.ts)
 *
 * The lanes only translate: their request into an Envelope and Credentials, the verdict into
 * their kind of answer (a JSON error, a redirect, the 404 or 503 page). No astro:* imports, so the
 * fast lane, the tests and `npm run bench` run this exact code.
 */
import { decide, type Decision } from '../../lib/access/policy.ts';
import type { Session } from '../auth/session.ts';
import { jsonError } from '../http/responses.ts';
import { STORE_READ_TIMEOUT_MS, UnavailableError, storeOutages, withTimeout } from '../outages.ts';
import type { ApiKeyReader } from '../feed/keys.ts';
import { identify, type Caller, type Credentials, type SessionReader } from './caller.ts';
import { screen, type Envelope, type Refusal } from './screen.ts';

export type { Caller, Credentials, SessionReader } from './caller.ts';
export type { Envelope, Refusal } from './screen.ts';

/** What the gate needs of the store: a cheap read that fails when the store cannot be reached. */
export interface StoreProbe {
  ping(): Promise<void>;
}

/** Is the store reachable? One bounded `ping()` (the store's cheapest read). */
export async function probeStore(store: () => Promise<StoreProbe>): Promise<boolean> {
  try {
    await withTimeout((await store()).ping(), 'store probe', STORE_READ_TIMEOUT_MS);
    return true;
  } catch {
    return false;
  }
}

export interface GateDeps {
  /** The verified session of a session cookie (`sessionFromCookie` with the process's Auth and store). */
  readonly session: SessionReader;
  /** The owner's session of a data-feed key (src/server/feed/keys.ts); without it no key is accepted. */
  readonly apiKey?: ApiKeyReader | undefined;
  /** The store, probed when a handler fails (and opened before the first request when `preflight` is given). */
  readonly store: () => Promise<StoreProbe>;
  readonly now?: (() => Date) | undefined;
  /**
   * Loopback-only mode (the Auth emulator's unsigned cookies, sandbox payments): only loopback
   * clients addressing the served loopback host and port are answered. Asked per request.
   */
  readonly loopbackOnly?: (() => boolean) | undefined;
  /** Runs once before the first request (refuse unsafe modes); the store is then opened too. */
  readonly preflight?: (() => void) | undefined;
}

/** What the gate says about a request once it knows who is calling. */
export type Verdict =
  /** Run the page or the handler. */
  | { readonly kind: 'serve' }
  /** Pages only: send the visitor elsewhere (sign in, subscribe). */
  | { readonly kind: 'redirect'; readonly to: string }
  /** Pages only: a page this visitor may not know about answers as a missing one (404). */
  | { readonly kind: 'hide' }
  /** APIs: the JSON 401/403. */
  | { readonly kind: 'refuse'; readonly refusal: Refusal }
  /** Who is calling could not be checked, and the path is not public: 503 (the JSON, or the 503 page). */
  | { readonly kind: 'unavailable'; readonly error: UnavailableError };

export interface Passage {
  readonly caller: Caller;
  readonly now: Date;
  /** An API path: refusals are JSON, never a redirect or a page. */
  readonly api: boolean;
  readonly verdict: Verdict;
}

export interface GateRequest {
  /** The path as asked; the policy normalizes it. */
  readonly pathname: string;
  readonly search: string;
  readonly credentials: Credentials;
}

export interface Gate {
  /** Once, before the first request: `preflight`, then the store is opened (a failure there is not fatal: what needs it answers 503). */
  ready(): Promise<void>;
  screen(envelope: Envelope): Refusal | null;
  admit(request: GateRequest): Promise<Passage>;
  /** A page or handler threw: the outage that explains it (logged once per outage), or `error` again. */
  explain(error: unknown, passage: Passage): Promise<UnavailableError>;
}

/** How a store outage is logged, once, when it begins. */
const STORE_CONSEQUENCE = 'pages and APIs that need it answer 503 (public pages that do not are served)';

export const isApiPath = (pathname: string): boolean => pathname === '/api' || pathname.startsWith('/api/');

/** The one JSON error shape, for a refusal (src/server/http/responses.ts owns the shape). */
export function refusalResponse(refusal: Refusal): Response {
  const response = jsonError(refusal.status, refusal.code, refusal.message, refusal.field);
  for (const [name, value] of Object.entries(refusal.headers ?? {})) response.headers.set(name, value);
  return response;
}

const denied = (decision: Extract<Decision, { kind: 'deny' }>): Refusal => ({
  status: decision.status,
  code: decision.code,
  message: decision.message,
  ...(decision.field ? { field: decision.field } : {}),
});
/** A key no record matches (never issued, mistyped or revoked): the key itself is never repeated. */
export const INVALID_KEY: Refusal = {
  status: 401,
  code: 'invalid_api_key',
  message: 'This API key is not valid: it was revoked, mistyped or never issued.',
  headers: { 'WWW-Authenticate': 'Bearer realm="PolyIndex data feed", error="invalid_token"' },
};
/** An API path the policy would send elsewhere (it never does: APIs are denied, not redirected). */
export const FORBIDDEN: Refusal = { status: 403, code: 'forbidden', message: 'Not allowed.' };

export function createGate(deps: GateDeps): Gate {
  let ready: Promise<void> | null = null;
  const loopbackOnly = deps.loopbackOnly ?? (() => false);

  return {
    ready() {
      ready ??= (async () => {
        deps.preflight?.();
        // Open the store (a first start seeds demo data) before the first request goes on, so the
        // first signed-in visitor does not pay for it.
        await deps.store().catch(() => undefined);
      })();
      return ready;
    },

    screen: (envelope) => screen(envelope, loopbackOnly()),

    async admit({ pathname, search, credentials }) {
      // A locale prefix (`/hi/…`, next) is taken off `pathname` here, before the policy and the
      // routes see it: the caller and the verdict do not depend on the language.
      const now = deps.now?.() ?? new Date();
      // The policy's answer for the session it was last asked about (asked once per session).
      let decided: { readonly session: Session | null; readonly decision: Decision } | null = null;
      const decideFor = (session: Session | null): Decision => {
        if (decided?.session !== session) decided = { session, decision: decide(pathname, session, now, search) };
        return decided.decision;
      };
      const caller = await identify(deps.session, credentials, now, (session) => decideFor(session).kind === 'allow', deps.apiKey);
      if (caller.session) storeOutages.answered(now.getTime());
      if (caller.unchecked?.dependency === 'store') storeOutages.failed(caller.unchecked.cause, now.getTime(), STORE_CONSEQUENCE);

      const api = isApiPath(pathname);
      const decision = decideFor(caller.session);
      const verdict: Verdict =
        // Who the caller is cannot be known: a public path goes on (as to an anonymous visitor), the rest waits.
        caller.unchecked && decision.kind !== 'allow'
          ? { kind: 'unavailable', error: caller.unchecked }
          : decision.kind === 'allow'
            ? { kind: 'serve' }
            : decision.kind === 'redirect'
              ? api
                ? { kind: 'refuse', refusal: FORBIDDEN }
                : { kind: 'redirect', to: decision.to }
              : api
                ? { kind: 'refuse', refusal: credentials.apiKey && !caller.session && decision.status === 401 ? INVALID_KEY : denied(decision) }
                : { kind: 'hide' };
      return { caller, now, api, verdict };
    },

    async explain(error, passage) {
      const cause = error instanceof UnavailableError ? error : (await probeStore(deps.store)) ? null : new UnavailableError('store', 'The store cannot be reached.', { cause: error });
      if (!cause) throw error;
      if (cause.dependency === 'store') storeOutages.failed(error, passage.now.getTime(), STORE_CONSEQUENCE);
      return cause;
    },
  };
}
