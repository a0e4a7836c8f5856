/**
 * Who is calling: what a request carries that says so (its credentials), and who that turns out
 * to be (the caller). Two credentials: the session cookie, and on the data feed's reads
 * (`GET /api/v1/**`) a key (`Authorization: Bearer pik_…`, or `?key=` in the URL), verified in
 * `identify` beside the cookie (src/server/feed/keys.ts). A key never counts anywhere else, and
 * never for a write. A locale prefix is a fact of the path, not of the caller (the gate's `admit`).
 */
import { parseCookie } from 'cookie';
import { sessionAllowing } from '../auth/currentSession.ts';
import type { Session } from '../auth/session.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { isFeedPath, URL_KEY_PARAM, type ApiKeyReader, type KeyPlace } from '../feed/keys.ts';
import { UnavailableError } from '../outages.ts';

/** Where a lane reads the credentials from (its own request type). */
export interface CredentialSource {
  /** A cookie's value, decoded as Astro's cookies decode it; undefined when absent. */
  cookie(name: string): string | undefined;
}

/** What the request carries that says who is calling. */
export interface Credentials {
  /** The session cookie's value (`__session`), not yet verified. */
  readonly sessionCookie: string | undefined;
  /** A data-feed key and where it was carried; read only on `GET`/`HEAD` of `/api/v1/**`. */
  readonly apiKey?: { readonly key: string; readonly place: KeyPlace } | undefined;
}

/** What of the request itself says where a key may be (method, path, query, the Authorization header). */
export interface RequestFacts {
  readonly method: string;
  readonly pathname: string;
  readonly search: string;
  readonly authorization: string | null | undefined;
}

export function credentialsOf(source: CredentialSource, request?: RequestFacts): Credentials {
  const sessionCookie = source.cookie(SESSION_COOKIE);
  return { sessionCookie, apiKey: request ? keyOf(request) : undefined };
}

/** A key of the data feed's reads: the Bearer header first, else `?key=`. Read-only: never on another method or path. */
function keyOf({ method, pathname, search, authorization }: RequestFacts): Credentials['apiKey'] {
  if ((method !== 'GET' && method !== 'HEAD') || !isFeedPath(pathname)) return undefined;
  const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  if (bearer) return { key: bearer, place: 'header' };
  const inUrl = search.includes(`${URL_KEY_PARAM}=`) ? new URLSearchParams(search).get(URL_KEY_PARAM) : null;
  return inUrl ? { key: inUrl, place: 'url' } : undefined;
}

/**
 * A Cookie header as a source, parsed at most once, by `cookie` (jshttp's parser, which Astro's
 * own `context.cookies` uses: both lanes read a cookie the same way). A value that is not valid
 * percent-encoding is kept as sent.
 */
export function cookieHeaderSource(header: string | undefined): CredentialSource {
  let parsed: Record<string, string | undefined> | undefined;
  return {
    cookie(name) {
      if (!header) return undefined;
      parsed ??= parseCookie(header);
      return parsed[name];
    },
  };
}

/** The verified session of a session cookie value (`sessionFromCookie`); throws UnavailableError when Firebase or the store cannot answer. */
export type SessionReader = (cookie: string | undefined, now: Date, options?: { readonly fresh?: boolean }) => Promise<Session | null>;

/** Who is calling, as far as the gate could tell. */
export interface Caller {
  readonly credentials: Credentials;
  /** The verified session; null for an anonymous caller, and when it could not be checked. */
  readonly session: Session | null;
  /** Set when who the caller is could not be checked (an outage): not anonymous, unknown. */
  readonly unchecked: UnavailableError | null;
  /** The session again with its user record read from the store, not the per-process copy. */
  fresh(): Promise<Session | null>;
}

/**
 * The caller behind `credentials`. `allows` is the policy's answer for a candidate session: a
 * refusal is never made on the cached user record (`sessionAllowing`, docs/decisions.md "User
 * records"), so a session it would refuse is read again from the store first.
 */
export async function identify(read: SessionReader, credentials: Credentials, now: Date, allows: (session: Session) => boolean, readKey?: ApiKeyReader): Promise<Caller> {
  const { sessionCookie, apiKey } = credentials;
  // A key, when the request carries one, says who is calling (a cookie beside it does not count).
  const readCaller = (options: { readonly fresh?: boolean }): Promise<Session | null> =>
    apiKey ? (readKey ? readKey(apiKey.key, apiKey.place, now) : Promise.resolve(null)) : read(sessionCookie, now, options);
  const fresh = () => readCaller({ fresh: true });
  try {
    const session = await sessionAllowing(readCaller, allows);
    return { credentials, session, unchecked: null, fresh };
  } catch (error) {
    if (!(error instanceof UnavailableError)) throw error;
    return { credentials, session: null, unchecked: error, fresh };
  }
}
