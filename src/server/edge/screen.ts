/**
 * The first look at every request, before anyone asks who is calling: what it asks to do (the
 * method), where it thinks it is going (the Host header) and, in loopback-only mode, where it comes
 * from. A request refused here is answered with the one JSON error shape and is never passed to
 * Astro (whose Request cannot even be built for TRACE or a Host with credentials: that was a 500
 * with a stack trace in the log) or to a handler.
 *
 * Loopback-only mode (the Auth emulator, sandbox payments, the WhatsApp sandbox, a Firestore
 * emulator: stand-ins that trust unsigned tokens or local secrets) answers only loopback clients
 * that address the server by a loopback name and the port it serves. The Host check is what stops
 * DNS rebinding: a page of `attacker.example` whose name now resolves to 127.0.0.1 reaches the
 * server from a loopback client, but its requests say `Host: attacker.example:<port>`, and the
 * same-origin checks compare Origin with that Host (the emulator's unsigned cookies make a forged
 * admin session easy), so the Host itself must be ours.
 */
import { isLoopbackHost } from '../../lib/modes.ts';

/** What the screen looks at; each lane fills it from its own request. */
export interface Envelope {
  readonly method: string;
  /** The Host header as sent; undefined when there is none (HTTP/1.0: nothing to rebind). */
  readonly host: string | undefined;
  /** The peer's address ('' when it cannot be told: never taken for loopback). */
  readonly clientAddress: string;
  /** The port this server serves the request on (the node lanes: the connection's own). */
  readonly servedPort: number;
}

/** An answer given before the request goes on: always the JSON error shape (src/server/http/responses.ts). */
export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /** The query parameter the refusal is about (e.g. `from` for a history limit). */
  readonly field?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Methods no resource of this site supports, ever: TRACE and TRACK echo the request (cookies
 * included) back to a script that could not read them, and CONNECT is for proxies. A Fetch
 * Request cannot carry them either. 501: not supported for any resource (RFC 9110 §15.6.2).
 */
const NEVER_SUPPORTED = new Set(['TRACE', 'TRACK', 'CONNECT']);

export interface Authority {
  /** Lower-case, IPv6 in brackets, as the URL parser gives it. */
  readonly hostname: string;
  readonly port: number;
}

// The last Host header that parsed, and what it parsed to: requests repeat it all day.
let lastHost: { readonly raw: string; readonly authority: Authority } | null = null;

/**
 * The authority a Host header names, or null when it is not one (RFC 9110 §7.2: `host [":"
 * port]`, no user, path, query or fragment, a port 0–65535). Read with the URL parser Astro uses
 * for the same header, so what passes here builds a URL there.
 */
export function authorityOf(raw: string): Authority | null {
  if (lastHost?.raw === raw) return lastHost.authority;
  let url: URL;
  try {
    url = new URL(`http://${raw}`);
  } catch {
    return null;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || raw.includes('@') || /[\s/?#\\]/.test(raw)) return null;
  const authority = { hostname: url.hostname, port: url.port === '' ? 80 : Number(url.port) };
  lastHost = { raw, authority };
  return authority;
}

const refusal = (status: number, code: string, message: string, headers?: Record<string, string>): Refusal => (headers ? { status, code, message, headers } : { status, code, message });

export const LOOPBACK_ONLY_MESSAGE = 'This server runs with local stand-ins (the Firebase Auth emulator or a sandbox) and answers loopback clients only.';

// The last envelope let through, and in which mode: a client sends request after request on one
// connection with the same method, Host and address, and each would be screened the same way.
let lastPassed: { readonly method: string; readonly host: string | undefined; readonly clientAddress: string; readonly servedPort: number; readonly loopbackOnly: boolean } | null = null;

/** null when the request may go on; otherwise the answer. */
export function screen(envelope: Envelope, loopbackOnly: boolean): Refusal | null {
  const last = lastPassed;
  if (last && last.method === envelope.method && last.host === envelope.host && last.clientAddress === envelope.clientAddress && last.servedPort === envelope.servedPort && last.loopbackOnly === loopbackOnly) return null;
  const refused = screenOnce(envelope, loopbackOnly);
  if (!refused) lastPassed = { method: envelope.method, host: envelope.host, clientAddress: envelope.clientAddress, servedPort: envelope.servedPort, loopbackOnly };
  return refused;
}

function screenOnce(envelope: Envelope, loopbackOnly: boolean): Refusal | null {
  if (NEVER_SUPPORTED.has(envelope.method.toUpperCase())) {
    return refusal(501, 'method_not_supported', `This server does not support ${envelope.method.toUpperCase()} requests.`);
  }
  const authority = envelope.host === undefined ? null : authorityOf(envelope.host);
  if (envelope.host !== undefined && !authority) return refusal(400, 'bad_host', 'The Host header is not a host name and port.');
  if (!loopbackOnly) return null;
  if (!isLoopbackHost(envelope.clientAddress)) return refusal(403, 'loopback_only', LOOPBACK_ONLY_MESSAGE);
  if (authority && !(isLoopbackHost(authority.hostname) && authority.port === envelope.servedPort)) {
    // 421 Misdirected Request: this server does not answer for that name (RFC 9110 §15.5.20).
    return refusal(421, 'misdirected_request', `This server answers for 127.0.0.1:${envelope.servedPort} and localhost:${envelope.servedPort} only.`);
  }
  return null;
}
