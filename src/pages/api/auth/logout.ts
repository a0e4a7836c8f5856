import type { APIRoute } from 'astro';
import { json, sameOriginError } from '../../../server/http/responses.ts';
import { SESSION_COOKIE, endSession } from '../../../server/auth/sessions.ts';
import { auth } from '../../../server/runtime.ts';

/**
 * Sign-out: revokes the user's sessions everywhere and clears the cookie. `Clear-Site-Data:
 * "cache"` also drops the browser's HTTP cache of this site (gated data answers are `private,
 * max-age=60`); the service worker's private copies go on the same sign-out (src/sw/sw.ts).
 */
export const POST: APIRoute = async ({ request, cookies }) => {
  const crossOrigin = sameOriginError(request);
  if (crossOrigin) return crossOrigin;
  await endSession(auth(), cookies.get(SESSION_COOKIE)?.value);
  cookies.delete(SESSION_COOKIE, { path: '/' });
  return json({ ok: true }, { headers: { 'Clear-Site-Data': '"cache"' } });
};
