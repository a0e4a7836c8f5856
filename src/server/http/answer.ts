/**
 * What an endpoint answers (src/server/edge/endpoint.ts): a Response, or the wire form of a
 * prepared body (json.ts, `preparedAnswer`). Prepared bodies are answered all day with the same
 * bytes, so their wire form is built once per body and shared: the node:http fast lane writes it
 * as it is (src/server/lanes/fastLane.ts), without a `Response` (building one per request cost
 * more than the rest of a gated answer); the Astro lane makes one from it (`responseOf`).
 */

/** The request headers a handler may read (a `Request`'s `Headers` fits; the fast lane passes a cheaper view). */
export interface RequestHeaders {
  get(name: string): string | null;
}

/** Status, header values (lower-case names, no content-length: the writer adds it) and body bytes. Nobody may change one. */
export interface WireAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | null;
  /**
   * Headers of this one request (a metered feed answer's `X-RateLimit-*`), written after
   * `headers`, which a prepared answer shares with every request: the fast lane finishes and
   * encodes the shared ones once per prepared answer and adds these as it writes. Never a header
   * that changes how the body is sent or kept (type, encoding, caching, validators, Vary).
   */
  readonly added?: Readonly<Record<string, string>>;
}

export type ApiAnswer = Response | WireAnswer;

/** The answer as a Response (the Astro lane, tests). */
export function responseOf(answer: ApiAnswer): Response {
  if (answer instanceof Response) return answer;
  // A copy of the shared bytes for the Response (the slow lane; the fast lane writes the Buffer).
  return new Response(answer.body && Uint8Array.from(answer.body), { status: answer.status, headers: answer.added ? { ...answer.headers, ...answer.added } : answer.headers });
}
