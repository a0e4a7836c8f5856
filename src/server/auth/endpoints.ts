/**
 * The sign-in endpoints: the session endpoints, built from their dependencies (like the lanes) so
 * tests run them against an Auth emulator behind a proxy they can cut: sign-in (POST
 * /api/auth/session) and sign-out (POST /api/auth/logout); and, declared for the site with the
 * process's Auth and store, those two, the Firebase web config and `GET /api/session`.
 */
import { z } from 'astro/zod';
import type { Auth } from 'firebase-admin/auth';
import { hasActiveSubscription, planInUse, renewalDue } from '../../lib/access/policy.ts';
import { isLoopbackHost } from '../../lib/modes.ts';
import { trialEndsOn } from '../../lib/trial.ts';
import { sendWelcome } from '../delivery/welcome.ts';
import { endpoint, type Endpoint } from '../edge/endpoint.ts';
import { json, jsonError, readJson, sameOriginError } from '../http/responses.ts';
import { UnavailableError, unavailableJson } from '../outages.ts';
import { adminPanelUrl, auth, firebaseWebConfig, store } from '../runtime.ts';
import type { UserRecord, UserStore } from '../store/users.ts';
import { ensureUserRecord, publicUserRecord } from '../users.ts';
import { SESSION_COOKIE, SESSION_MS, SessionError, endSession, startSession } from './sessions.ts';

export interface SessionEndpointDeps {
  readonly auth: () => Auth;
  readonly store: () => Promise<UserStore>;
  /** Runs once per account, for the sign-in that created its record (the welcome mail). */
  readonly onCreated?: ((record: UserRecord) => void) | undefined;
}

const SignIn = z.object({
  idToken: z
    .string({ error: 'idToken is required.' })
    .min(20, 'idToken is not a Firebase ID token.')
    .max(8192, 'idToken is too long.')
    .regex(/^[\w-]+\.[\w-]*\.[\w-]*$/, 'idToken is not a Firebase ID token.'),
});

/**
 * Sign-in: a fresh Firebase ID token becomes an HttpOnly session cookie, and the user record
 * exists on return. 401 when Firebase says no; 503 `auth_unavailable` ("Sign-in is
 * unavailable, try again in a few minutes.", shown by the sign-in page) when it cannot be
 * reached; 503 `store_unavailable` when the record cannot be written.
 */
export function signInHandler(deps: SessionEndpointDeps): Endpoint {
  return endpoint('public', async ({ request, url, cookies }) => {
    const crossOrigin = sameOriginError(request);
    if (crossOrigin) return crossOrigin;
    const input = await readJson(request, SignIn);
    if (!input.ok) return input.response;

    try {
      const { cookie, token } = await startSession(deps.auth(), input.data.idToken);
      let record: UserRecord;
      try {
        record = await ensureUserRecord(await deps.store(), token, new Date(), deps.onCreated);
      } catch (error) {
        throw new UnavailableError('store', 'The user record cannot be written.', { cause: error });
      }
      cookies.set(SESSION_COOKIE, cookie, {
        httpOnly: true,
        sameSite: 'lax',
        secure: url.protocol === 'https:' || !isLoopbackHost(url.hostname),
        path: '/',
        maxAge: SESSION_MS / 1000,
      });
      return json({ user: publicUserRecord(record) });
    } catch (error) {
      if (error instanceof SessionError) return jsonError(401, error.code, error.message, 'idToken');
      if (error instanceof UnavailableError) return unavailableJson(error);
      throw error;
    }
  });
}

/**
 * Sign-out: this browser's cookie is cleared and refused at once; every session of the user is
 * revoked (other instances refuse them within 30 s). `everywhere` is false when Firebase could
 * not be told (an outage): this device is signed out all the same, and the revocation is
 * retried when Firebase answers again. `Clear-Site-Data: "cache"` drops the browser's HTTP
 * cache of this site (gated data answers are `private, max-age=60`), in an outage too.
 */
export function signOutHandler(deps: Pick<SessionEndpointDeps, 'auth'>): Endpoint {
  return endpoint('public', async ({ request, cookies }) => {
    const crossOrigin = sameOriginError(request);
    if (crossOrigin) return crossOrigin;
    const { everywhere } = await endSession(deps.auth(), cookies.get(SESSION_COOKIE)?.value);
    cookies.delete(SESSION_COOKIE, { path: '/' });
    return json({ ok: true, everywhere }, { headers: { 'Clear-Site-Data': '"cache"' } });
  });
}

// ---- the site's endpoints -------------------------------------------------------------------

/** POST /api/auth/session: sign-in, and a welcome mail for a new account. */
export const signIn = signInHandler({ auth, store, onCreated: sendWelcome });

/**
 * POST /api/auth/logout: sign-out. Its `Clear-Site-Data: "cache"` also drops the browser's HTTP
 * cache of this site; the service worker's private copies go on the same sign-out (src/sw/sw.ts).
 */
export const signOut = signOutHandler({ auth });

/** GET /api/auth/config: the Firebase web config for the sign-in page; read at run time so one build serves every mode. */
export const webConfig = endpoint('public', () => json(firebaseWebConfig, { headers: { 'Cache-Control': 'public, max-age=300' } }));

/**
 * GET /api/session: the visitor's record (no secrets) and what it may see, for islands on static
 * pages. 503 `auth_unavailable` or `store_unavailable` (with Retry-After) when the session cookie
 * could not be checked: that visitor is not anonymous, and must not be shown as signed out.
 */
export const currentSession = endpoint('public', ({ locals }) => {
  if (locals.sessionUnchecked) {
    const response = unavailableJson(new UnavailableError(locals.sessionUnchecked, 'The session cannot be checked.'));
    response.headers.set('Cache-Control', 'private, no-store');
    return response;
  }
  const session = locals.session;
  if (!session) return json({ user: null, entitlement: 'anonymous' }, { headers: { 'Cache-Control': 'private, no-store' } });
  const record = session.record;
  const now = new Date();
  const inUse = planInUse(session, now);
  return json(
    {
      user: record ? publicUserRecord(record) : null,
      entitlement: session.entitlement,
      admin: record?.role === 'admin',
      subscribed: hasActiveSubscription(record, now),
      trial: session.inTrial ? { active: true, endsOn: trialEndsOn(record) } : null,
      renewalDue: renewalDue(record, now),
      adminPanelUrl: record?.role === 'admin' ? adminPanelUrl : null,
      team: inUse?.via === 'seat' && inUse.plan ? { plan: inUse.plan, ownerEmail: session.seat?.ownerEmail ?? null } : null,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  );
});
