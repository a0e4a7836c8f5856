import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { isLoopbackHost } from '../../../lib/modes.ts';
import { json, jsonError, readJson, sameOriginError } from '../../../server/http/responses.ts';
import { SESSION_COOKIE, SESSION_MS, SessionError, startSession } from '../../../server/auth/sessions.ts';
import { auth, store } from '../../../server/runtime.ts';
import { ensureUserRecord, publicUserRecord } from '../../../server/users.ts';
import { sendWelcome } from '../../../server/delivery/welcome.ts';

const SignIn = z.object({
  idToken: z
    .string({ error: 'idToken is required.' })
    .min(20, 'idToken is not a Firebase ID token.')
    .max(8192, 'idToken is too long.')
    .regex(/^[\w-]+\.[\w-]*\.[\w-]*$/, 'idToken is not a Firebase ID token.'),
});

/** Sign-in: a fresh Firebase ID token becomes an HttpOnly session cookie, and the user record exists on return. */
export const POST: APIRoute = async ({ request, url, cookies }) => {
  const crossOrigin = sameOriginError(request);
  if (crossOrigin) return crossOrigin;
  const input = await readJson(request, SignIn);
  if (!input.ok) return input.response;

  try {
    const { cookie, token } = await startSession(auth(), input.data.idToken);
    const record = await ensureUserRecord(await store(), token, new Date(), sendWelcome);
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
    throw error;
  }
};
