/**
 * The one endpoint style. An endpoint is declared once, in its feature's
 * `src/server/<feature>/endpoints.ts`, as its handler and the access it asks for:
 *
 *   export const setRole = endpoint('admin', async ({ params, request, locals }) => …);
 *
 * and bound to its path by the route file, which holds nothing else:
 *
 *   export { setRole as POST } from '../../../../../server/admin/endpoints.ts';
 *
 * One handler signature for both lanes: `EndpointContext` → a Response or a prepared answer's
 * wire form. The Astro lane calls an endpoint as the route it is (Astro passes its context; the
 * endpoint reads what it needs of it); the fast lane calls `handle` with its own context. The
 * declared access is not decided here: the gate decides by path (`decide()`), and
 * tests/unit/apiEndpoints.test.ts holds every route file's declaration to it.
 */
import type { APIContext, AstroCookieSetOptions } from 'astro';
import type { Requirement } from '../../lib/access/policy.ts';
import { responseOf, type ApiAnswer, type RequestHeaders } from '../http/answer.ts';
import { store as processStore } from '../runtime.ts';
import type { Store } from '../store/index.ts';

export type { RequestHeaders } from '../http/answer.ts';

/** The cookies an endpoint may read and write (Astro's `context.cookies` fits). */
export interface EndpointCookies {
  get(name: string): { readonly value: string } | undefined;
  set(name: string, value: string, options?: AstroCookieSetOptions): void;
  delete(name: string, options?: Omit<AstroCookieSetOptions, 'expires' | 'maxAge' | 'encode'>): void;
}

/** What every endpoint is given, by either lane. */
export interface EndpointContext {
  readonly url: URL;
  /** The site's public origin as configured at build time (`SITE_URL`); undefined when none was set. */
  readonly site: URL | undefined;
  /** Route parameters, decoded (e.g. `city` of `/api/citywise/[city]`). */
  readonly params: Readonly<Record<string, string | undefined>>;
  /** The request headers; read them here rather than through `request` (the fast lane makes a Request only when asked). */
  readonly headers: RequestHeaders;
  /** The request: method and body. */
  readonly request: Request;
  /** The peer's address ('' or 'unknown' when it cannot be told). */
  readonly clientAddress: string;
  readonly cookies: EndpointCookies;
  /** What the gate settled: the verified session (null: anonymous), or that it could not be checked. */
  readonly locals: App.Locals;
  /** The process's store (tests give another). */
  readonly store: () => Promise<Store>;
}

export type EndpointHandler = (context: EndpointContext) => Promise<ApiAnswer> | ApiAnswer;

/** What a path asks of its caller, as the policy words it; a function of the query for the few that depend on it (`/api/blogs?type=`). */
export type Access = Requirement | ((search: string) => Requirement);

/** A declared endpoint: callable as an Astro route, with its handler and its access beside it. */
export interface Endpoint {
  (context: APIContext): Promise<Response>;
  readonly handle: EndpointHandler;
  /** The requirement this endpoint's path asks, for a query string (`?…` or ''). */
  readonly access: (search: string) => Requirement;
}

const declared = new WeakSet<object>();

/** Whether a value (a route file's export) was declared by `endpoint`. */
export const isEndpoint = (value: unknown): value is Endpoint => typeof value === 'function' && declared.has(value);

/** The address of the peer as Astro saw it; a context built by hand may have none. */
function clientAddressOf(context: Partial<APIContext>): string {
  try {
    return context.clientAddress || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Locals of a context built by hand with none (tests): an anonymous caller. */
const NO_LOCALS: App.Locals = Object.freeze({ session: null });

/**
 * The endpoint context of an Astro call: Astro's own context, read as the endpoint asks (a
 * context built by hand in a test may lack url, params or locals).
 */
function fromAstro(context: APIContext): EndpointContext {
  return {
    get url() {
      return context.url ?? new URL(context.request.url);
    },
    get site() {
      return context.site;
    },
    get params() {
      return context.params ?? {};
    },
    get headers() {
      return context.request.headers;
    },
    get request() {
      return context.request;
    },
    get clientAddress() {
      return clientAddressOf(context);
    },
    get cookies() {
      return context.cookies;
    },
    get locals() {
      return context.locals ?? NO_LOCALS;
    },
    store: processStore,
  };
}

export function endpoint(access: Access, handle: EndpointHandler): Endpoint {
  const route = async (context: APIContext): Promise<Response> => responseOf(await handle(fromAstro(context)));
  const made = Object.assign(route, { handle, access: typeof access === 'function' ? access : () => access });
  declared.add(made);
  return made;
}
