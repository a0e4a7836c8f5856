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
import { encodeForNode, negotiateEncoding, type ContentCoding, type NodeAnswer } from '../edge/compression.ts';
import { apiKeyReader, withoutKey } from '../feed/keys.ts';
import { finishRecord, VIEWER_HEADER_NAME, viewerValue, withViewer, type Audience } from '../edge/headers.ts';
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

/**
 * A prepared answer's headers finished and encoded (./compression.ts) once per coding it is sent
 * in: prepared answers are shared and never change, so per request only the viewer header and
 * the answer's own `added` headers (a metered answer's counts) are written beside them. Keyed by
 * the shared headers record, which a metered answer keeps while its `added` change.
 */
interface Encoded {
  readonly status: number;
  /** Finished, encoded, with content-length: everything but the viewer and `added`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | null;
  readonly namesViewer: boolean;
}
const preparedEncodings = new WeakMap<object, { readonly status: number; readonly body: Buffer | null; readonly byCoding: Map<ContentCoding | null, Encoded | Promise<Encoded>> }>();

function encodedOnce(answer: WireAnswer, acceptEncoding: string | undefined): Encoded | Promise<Encoded> {
  let entry = preparedEncodings.get(answer.headers);
  // The same headers record always comes with the same status and body (json.ts makes both at once); checked, not assumed.
  if (!entry || entry.body !== answer.body || entry.status !== answer.status) {
    entry = { status: answer.status, body: answer.body, byCoding: new Map() };
    preparedEncodings.set(answer.headers, entry);
  }
  // The plan depends on the request's Accept-Encoding only through the coding it settles on.
  const coding = negotiateEncoding(acceptEncoding);
  const known = entry.byCoding.get(coding);
  if (known) return known;
  const finished = finishRecord(Object.entries(answer.headers));
  const { status } = answer;
  // A prepared answer's compressed bytes are kept with its body, which every answer of it shares.
  const encoding = encodeForNode(acceptEncoding, status, finished.headers, answer.body, answer.body ?? answer.headers);
  const done = (encoded: NodeAnswer): Encoded => {
    const headers = encoded.headers;
    if (encoded.body) headers['content-length'] = String(encoded.body.length);
    const made: Encoded = { status, headers, body: encoded.body, namesViewer: finished.namesViewer };
    entry.byCoding.set(coding, made);
    return made;
  };
  if (!(encoding instanceof Promise)) return done(encoding);
  const pending = encoding.then(done);
  entry.byCoding.set(coding, pending);
  // A failed compression is not kept: the next request tries again.
  pending.catch(() => {
    if (entry.byCoding.get(coding) === pending) entry.byCoding.delete(coding);
  });
  return pending;
}

async function write(res: ServerResponse, answer: ApiAnswer, audience: Audience | null, acceptEncoding?: string): Promise<void> {
  if (!(answer instanceof Response)) {
    const once = encodedOnce(answer, acceptEncoding);
    const encoded = once instanceof Promise ? await once : once;
    const headers: Record<string, string> = { ...encoded.headers };
    const viewer = viewerValue(encoded.namesViewer, audience);
    if (viewer !== null) headers[VIEWER_HEADER_NAME] = viewer;
    if (answer.added) Object.assign(headers, answer.added);
    res.writeHead(encoded.status, headers);
    res.end(encoded.body);
    return;
  }
  const finished = finishRecord(answer.headers);
  const body = answer.body ? Buffer.from(await answer.arrayBuffer()) : null;
  const encoding = encodeForNode(acceptEncoding, answer.status, withViewer(finished, audience), body, null);
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
        answer = await match.route.handler(new FastLaneContext(req, url, match.params, caller.session, cookies, deps.store));
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

/**
 * What a fast-lane endpoint is given: the cheap header view; a Request (and cookies) only when one
 * asks. A class, so the lazy parts are getters of its prototype, not made again for each request.
 */
class FastLaneContext implements EndpointContext {
  readonly site = undefined;
  readonly url: URL;
  readonly params: EndpointContext['params'];
  readonly locals: EndpointContext['locals'];
  readonly store: () => Promise<Store>;
  readonly #req: IncomingMessage;
  readonly #source: CredentialSource;
  #request: Request | undefined;
  #cookies: EndpointCookies | undefined;
  #headers: RequestHeaders | undefined;

  constructor(req: IncomingMessage, url: URL, params: EndpointContext['params'], session: EndpointContext['locals']['session'], source: CredentialSource, store: () => Promise<Store>) {
    this.#req = req;
    this.url = url;
    this.params = params;
    this.locals = { session };
    this.#source = source;
    this.store = store;
  }

  get headers(): RequestHeaders {
    return (this.#headers ??= headerView(this.#req));
  }

  get clientAddress(): string {
    return this.#req.socket.remoteAddress ?? '';
  }

  get cookies(): EndpointCookies {
    return (this.#cookies ??= readOnlyCookies(this.#source));
  }

  get request(): Request {
    // A GET has no body: the request is its URL (with the Host it was sent to) and its headers.
    return (this.#request ??= new Request(new URL(`${this.url.pathname}${this.url.search}`, `http://${this.#req.headers.host ?? 'localhost'}`), { headers: headersOf(this.#req) }));
  }
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
