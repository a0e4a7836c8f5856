/**
 * What a data endpoint's handler is given, by either lane: the Astro route file (through
 * `astroEndpoint`) or the node:http fast lane (src/server/lanes/fastLane.ts). No astro:* imports
 * here or in the handlers, so both lanes, the tests and `npm run bench` run the same code.
 */
import type { Session } from '../auth/session.ts';
import type { ApiAnswer } from '../http/answer.ts';
import type { Store } from '../store/index.ts';

/** The request headers a handler may read (a `Request`'s `Headers` fits; the fast lane passes a cheaper view). */
export interface RequestHeaders {
  get(name: string): string | null;
}

export interface ApiContext {
  readonly url: URL;
  /** Route parameters, decoded (e.g. `city` of `/api/citywise/:city`). */
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly headers: RequestHeaders;
  /** The verified visitor (null: anonymous); the lane has already applied the access policy. */
  readonly session: Session | null;
  readonly store: Store;
}

/** A Response, or a prepared body's wire form (the fast lane writes it without building a Response). */
export type ApiHandler = (context: ApiContext) => Promise<ApiAnswer> | ApiAnswer;
