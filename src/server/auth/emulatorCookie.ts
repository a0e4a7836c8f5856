/**
 * The Auth emulator's session cookies, checked here. They are unsigned (`alg: none`), so
 * firebase-admin cannot check them locally and asks the emulator about the user on every
 * call; these are the checks firebase-admin makes of an emulator cookie (issuer, audience,
 * subject, expiry, the empty signature) without that round trip. Whether the account was
 * revoked or disabled is then asked by sessions.ts exactly as with real Firebase, so emulator
 * mode costs what real Firebase costs. Emulator mode serves loopback only (docs/architecture.md, "Modes and security").
 */
import type { DecodedIdToken } from 'firebase-admin/auth';

/** firebase-admin's error code for a malformed or unverifiable cookie, and for an expired one. */
export class EmulatorCookieError extends Error {
  constructor(
    readonly code: 'auth/argument-error' | 'auth/session-cookie-expired',
    message: string,
  ) {
    super(message);
  }
}

const SESSION_ISSUER = 'https://session.firebase.google.com/';

function part(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(text ?? '', 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new EmulatorCookieError('auth/argument-error', 'Decoding the session cookie failed.');
}

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The cookie's claims, or an EmulatorCookieError; `nowMs` decides expiry exactly (valid while now < exp). */
export function verifyEmulatorSessionCookie(cookie: string, projectId: string, nowMs: number): DecodedIdToken {
  const parts = cookie.split('.');
  if (parts.length !== 3) throw new EmulatorCookieError('auth/argument-error', 'A session cookie has three parts.');
  const [header, payload, signature] = parts;
  if (part(header)['alg'] !== 'none' || signature !== '') {
    throw new EmulatorCookieError('auth/argument-error', 'An emulator session cookie is unsigned (alg none, empty signature).');
  }
  const claims = part(payload);
  const problem =
    claims['aud'] !== projectId
      ? 'incorrect "aud" (audience) claim'
      : claims['iss'] !== `${SESSION_ISSUER}${projectId}`
        ? 'incorrect "iss" (issuer) claim'
        : typeof claims['sub'] !== 'string' || claims['sub'] === '' || claims['sub'].length > 128
          ? 'no valid "sub" (subject) claim'
          : !isTime(claims['exp']) || !isTime(claims['iat']) || !isTime(claims['auth_time'])
            ? 'no "exp", "iat" or "auth_time" claim'
            : isTime(claims['nbf']) && nowMs < claims['nbf'] * 1000
              ? 'not valid yet ("nbf")'
              : null;
  if (problem) throw new EmulatorCookieError('auth/argument-error', `The session cookie has ${problem}.`);
  if (nowMs >= (claims['exp'] as number) * 1000) throw new EmulatorCookieError('auth/session-cookie-expired', 'The session cookie has expired.');
  return { ...claims, uid: claims['sub'] } as DecodedIdToken;
}
