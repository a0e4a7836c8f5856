// The `Cookie` header that carries a session the site set, read with the `cookie` package (the
// parser the server's gate uses), not by hand.
import { parseSetCookie, stringifyCookie } from 'cookie';

const SESSION_COOKIE = '__session';

/**
 * `__session=…` from a response's Set-Cookie headers (`headers.getSetCookie()`), or null when
 * the response set no session.
 * @param {readonly string[]} setCookies
 * @returns {string | null}
 */
export function sessionCookieOf(setCookies) {
  for (const header of setCookies) {
    const { name, value } = parseSetCookie(header);
    if (name === SESSION_COOKIE && value) return stringifyCookie({ [name]: value });
  }
  return null;
}
