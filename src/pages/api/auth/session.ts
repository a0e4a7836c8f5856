import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { isLoopbackHost } from '../../../lib/modes.ts';
import { crossOriginRefused, isSameOrigin, jsonError, jsonResponse, parseOr400, readJsonBody } from '../../../server/http/responses.ts';
import { SESSION_COOKIE, SESSION_MS, SessionError, startSession } from '../../../server/auth/sessions.ts';
import { auth, store } from '../../../server/runtime.ts';
import { ensureUserRecord, publicUserRecord } from '../../../server/users.ts';

const SignIn = z.object({
  idToken: z
    .string({ error: 'idToken is required.' })
    .min(20, 'idToken is not a Firebase ID token.')
    .max(8192, 'idToken is too long.')
    .regex(/^[\w-]+\.[\w-]*\.[\w-]*$/, 'idToken is not a Firebase ID token.'),
});

/** Sign-in: a fresh Firebase ID token becomes an HttpOnly session cookie, and the user record exists on return. */
export const POST: APIRoute = async ({ request, url, cookies }) => {
  if (!isSameOrigin(request, url)) return crossOriginRefused();
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const input = parseOr400(SignIn, body.body);
  if (!input.ok) return input.response;

  try {
    const { cookie, token } = await startSession(auth(), input.data.idToken);
    const record = await ensureUserRecord(await store(), token, new Date());
    cookies.set(SESSION_COOKIE, cookie, {
      httpOnly: true,
      sameSite: 'lax',
      secure: url.protocol === 'https:' || !isLoopbackHost(url.hostname),
      path: '/',
      maxAge: SESSION_MS / 1000,
    });
    return jsonResponse({ user: publicUserRecord(record) });
  } catch (error) {
    if (error instanceof SessionError) return jsonError(401, error.code, error.message, 'idToken');
    throw error;
  }
};
