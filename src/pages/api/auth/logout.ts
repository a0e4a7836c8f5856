import type { APIRoute } from 'astro';
import { json, sameOriginError } from '../../../server/http/responses.ts';
import { SESSION_COOKIE, endSession } from '../../../server/auth/sessions.ts';
import { auth } from '../../../server/runtime.ts';

/** Sign-out: revokes the user's sessions everywhere and clears the cookie. */
export const POST: APIRoute = async ({ request, cookies }) => {
  const crossOrigin = sameOriginError(request);
  if (crossOrigin) return crossOrigin;
  await endSession(auth(), cookies.get(SESSION_COOKIE)?.value);
  cookies.delete(SESSION_COOKIE, { path: '/' });
  return json({ ok: true });
};
