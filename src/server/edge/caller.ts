/**
 * Who is calling: what a request carries that says so (its credentials), and who that turns out
 * to be (the caller). Today the only credential is the session cookie. The next ways in are added
 * here and nowhere else in either lane: an API key (`Authorization: Bearer`, issue 25) is one more
 * field of `Credentials`, read in `credentialsOf` and verified in `identify` beside the cookie; a
 * locale prefix is a fact of the path, not of the caller (the gate's `admit`).
 */
import { parseCookie } from 'cookie';
import { sessionAllowing } from '../auth/currentSession.ts';
import type { Session } from '../auth/session.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';
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
}

export function credentialsOf(source: CredentialSource): Credentials {
  return { sessionCookie: source.cookie(SESSION_COOKIE) };
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
export async function identify(read: SessionReader, credentials: Credentials, now: Date, allows: (session: Session) => boolean): Promise<Caller> {
  const { sessionCookie } = credentials;
  const fresh = () => read(sessionCookie, now, { fresh: true });
  try {
    const session = await sessionAllowing((options) => read(sessionCookie, now, options), allows);
    return { credentials, session, unchecked: null, fresh };
  } catch (error) {
    if (!(error instanceof UnavailableError)) throw error;
    return { credentials, session: null, unchecked: error, fresh };
  }
}
