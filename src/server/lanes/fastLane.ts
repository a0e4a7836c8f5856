/**
 * The fast lane: a node:http handler that answers the data API's reads before the Astro app sees
 * the request: no Astro pipeline, no Request object, prepared bodies. It runs the same request
 * gate as the Astro lane (src/server/edge/gate.ts: the screen, who is calling, `decide()`, the
 * outage rule, the headers) and the same endpoints (src/server/api/routes.ts), so both lanes give
 * the same answers; it only translates node:http into the gate's terms and writes the answer.
 * Anything else returns false and goes on to the static files and Astro.
 *
 * `createEdgeScreen` is the screen alone, for every request the fast lane does not answer (the
 * server entry runs it after the fast lane): TRACE or a bad Host never reaches Astro, whose
 * Request cannot be built for them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchApiRoute, type ApiRouter } from '../api/routes.ts';
import { cookieHeaderSource, credentialsOf, type CredentialSource } from '../edge/caller.ts';
import type { EndpointContext, EndpointCookies, RequestHeaders } from '../edge/endpoint.ts';
import { createGate, FORBIDDEN, refusalResponse, type Envelope, type GateDeps } from '../edge/gate.ts';
import { screen } from '../edge/screen.ts';
import { encodeForNode } from '../edge/compression.ts';
import { apiKeyReader, withoutKey } from '../feed/keys.ts';
import { finishRecord, withViewer, type Audience, type FinishedRecord } from '../edge/headers.ts';
import type { ApiAnswer, WireAnswer } from '../http/answer.ts';
import { jsonError } from '../http/responses.ts';
import { unavailableJson } from '../outages.ts';
import type { Store } from '../store/index.ts';

export interface FastLaneDeps extends Omit<GateDeps, 'store'> {
  readonly store: () => Promise<Store>;
  /** The routes it answers (tests); by default the data API's table. */
  readonly router?: ApiRouter;
}

/** `(req, res) → handled?`: true when the lane answers (asynchronously), false to pass the request on. */
export type NodeLane = (req: IncomingMessage, res: ServerResponse) => boolean;

const headerView = (req: IncomingMessage): RequestHeaders => ({
  get(name) {
    const value = req.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  },
});

/** The envelope of a node:http request: the port is the connection's own (what this server serves it on). */
const envelopeOf = (req: IncomingMessage): Envelope => ({
  method: req.method ?? 'GET',
  host: req.headers.host,
  clientAddress: req.socket.remoteAddress ?? '',
  servedPort: req.socket.localPort ?? 0,
});

/** Prepared answers are shared and never change: their finished headers are made once each. */
const preparedHeaders = new WeakMap<WireAnswer, FinishedRecord>();

async function write(res: ServerResponse, answer: ApiAnswer, audience: Audience | null, acceptEncoding?: string): Promise<void> {
  let finished: FinishedRecord | undefined;
  let body: Buffer | null;
  if (answer instanceof Response) {
    finished = finishRecord(answer.headers);
    body = answer.body ? Buffer.from(await answer.arrayBuffer()) : null;
  } else {
    finished = preparedHeaders.get(answer);
    if (!finished) preparedHeaders.set(answer, (finished = finishRecord(Object.entries(answer.headers))));
    body = answer.body;
  }
  // Brotli or gzip by Accept-Encoding (src/server/edge/compression.ts): a prepared answer's
  // compressed bytes are kept with its body, which copies of it share (a metered feed answer is
  // a copy per request with that request's X-RateLimit-* headers, the same bytes).
  const encoding = encodeForNode(acceptEncoding, answer.status, withViewer(finished, audience), body, answer instanceof Response ? null : (answer.body ?? answer));
  const encoded = encoding instanceof Promise ? await encoding : encoding;
  const headers = encoded.headers;
  if (encoded.body) headers['content-length'] = String(encoded.body.length);
  res.writeHead(answer.status, headers);
  res.end(encoded.body);
}

/** Cookies as a fast-lane endpoint sees them: read from the Cookie header; the lane answers reads only, so nothing is set. */
function readOnlyCookies(source: CredentialSource): EndpointCookies {
  const refuse = () => {
    throw new Error('The fast lane answers reads only: an endpoint that sets cookies belongs to the Astro lane.');
  };
  return {
    get: (name) => {
      const value = source.cookie(name);
      return value === undefined ? undefined : { value };
    },
    set: refuse,
    delete: refuse,
  };
}

/** The request's headers as a Headers object (only for an endpoint that asks for the Request). */
function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

export function createFastLane(deps: FastLaneDeps): NodeLane {
  const gate = createGate({ ...deps, apiKey: deps.apiKey ?? apiKeyReader(deps.store) });
  const router = deps.router ?? matchApiRoute;
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
    const match = router(url.pathname);
    if (!match) return false;

    let audience: Audience | null = null;
    void (async () => {
      const refusal = gate.screen(envelopeOf(req));
      if (refusal) return write(res, refusalResponse(refusal), null);
      const cookies = cookieHeaderSource(req.headers.cookie);
      const passage = await gate.admit({ pathname: url.pathname, search: url.search, credentials: credentialsOf(cookies, { method: req.method ?? 'GET', pathname: url.pathname, search: url.search, authorization: req.headers.authorization }) });
      const { caller, verdict } = passage;
      audience = { caller, now: passage.now };
      // API paths never redirect or show pages: the gate says serve, refuse or unavailable.
      if (verdict.kind === 'unavailable') return write(res, unavailableJson(verdict.error), audience);
      if (verdict.kind !== 'serve') return write(res, refusalResponse(verdict.kind === 'refuse' ? verdict.refusal : FORBIDDEN), audience, req.headers['accept-encoding']);
      let answer: ApiAnswer;
      try {
        answer = await match.route.handler(contextOf(req, url, match.params, caller.session, cookies, deps.store));
      } catch (error) {
        answer = unavailableJson(await gate.explain(error, passage));
      }
      return write(res, answer, audience, req.headers['accept-encoding']);
    })().catch((error: unknown) => {
      // A data-feed key in the URL never reaches a log.
      console.error(`[fast-lane] ${req.method} ${withoutKey(raw)} failed:`, error);
      if (res.headersSent) return void res.destroy();
      void write(res, jsonError(500, 'internal_error', 'Something went wrong on our side. Please try again.'), audience);
    });
    return true;
  };
}

/** What a fast-lane endpoint is given: the cheap header view; a Request (and cookies) only when one asks. */
function contextOf(
  req: IncomingMessage,
  url: URL,
  params: EndpointContext['params'],
  session: EndpointContext['locals']['session'],
  source: CredentialSource,
  store: () => Promise<Store>,
): EndpointContext {
  let request: Request | undefined;
  let cookies: EndpointCookies | undefined;
  return {
    url,
    site: undefined,
    params,
    headers: headerView(req),
    locals: { session },
    store,
    get clientAddress() {
      return req.socket.remoteAddress ?? '';
    },
    get cookies() {
      return (cookies ??= readOnlyCookies(source));
    },
    get request() {
      // A GET has no body: the request is its URL (with the Host it was sent to) and its headers.
      return (request ??= new Request(new URL(`${url.pathname}${url.search}`, `http://${req.headers.host ?? 'localhost'}`), { headers: headersOf(req) }));
    },
  };
}

/**
 * The gate's screen for every request the fast lane passes on (static files, Astro): a refused
 * request is answered here; anything else returns false and goes on.
 */
export function createEdgeScreen({ loopbackOnly = () => false }: { readonly loopbackOnly?: (() => boolean) | undefined }): NodeLane {
  return (req, res) => {
    const refusal = screen(envelopeOf(req), loopbackOnly());
    if (!refusal) return false;
    void write(res, refusalResponse(refusal), null);
    return true;
  };
}
