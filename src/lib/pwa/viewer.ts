/**
 * Who a gated answer was made for, as the service worker sees it. The server names the viewer of
 * every answer it shapes per visitor in VIEWER_HEADER: `anonymous`, or an opaque key of the user
 * and the session's expiry. The service worker keeps private copies for one viewer (the owner)
 * and drops them when another viewer (or nobody) shows up, and stops serving them when the
 * session they were fetched under has expired.
 */

export const VIEWER_HEADER = 'X-PolyIndex-Viewer';

export type Viewer =
  | { readonly signedIn: false }
  | {
      readonly signedIn: true;
      /** An opaque, stable key of the user (not the uid itself). */
      readonly key: string;
      /** When the session cookie expires, in ms since the epoch. */
      readonly expiresAt: number;
    };

export const ANONYMOUS: Viewer = { signedIn: false };

const KEY_RE = /^[0-9a-f]{16,64}$/;
const SIGNED_IN_RE = /^key=([0-9a-f]{16,64}); expires=(\d{1,12})$/;

/** `anonymous`, or `key=<hex>; expires=<unix seconds>`. */
export function formatViewer(viewer: Viewer): string {
  if (!viewer.signedIn) return 'anonymous';
  if (!KEY_RE.test(viewer.key)) throw new RangeError('a viewer key is 16 to 64 lower-case hex digits');
  return `key=${viewer.key}; expires=${Math.floor(viewer.expiresAt / 1000)}`;
}

/** The viewer a header names; null for a missing or malformed header (which says nothing). */
export function parseViewer(header: string | null | undefined): Viewer | null {
  const text = header?.trim();
  if (!text) return null;
  if (text === 'anonymous') return ANONYMOUS;
  const m = SIGNED_IN_RE.exec(text);
  return m ? { signedIn: true, key: m[1]!, expiresAt: Number(m[2]) * 1000 } : null;
}

/** The owner of the private copies: a signed-in viewer, and since when (ms) its copies count. */
export interface Owner {
  readonly key: string;
  readonly expiresAt: number;
  /** Answers to requests sent before this instant are not the owner's and are never kept. */
  readonly since: number;
}

/** The stored owner record, or null when it is missing or not an owner record. */
export function parseOwner(value: unknown): Owner | null {
  if (typeof value !== 'object' || value === null) return null;
  const { key, expiresAt, since } = value as Record<string, unknown>;
  if (typeof key !== 'string' || !KEY_RE.test(key)) return null;
  if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) return null;
  if (typeof since !== 'number' || !Number.isFinite(since)) return null;
  return { key, expiresAt, since };
}

/** True while the owner's session has not expired: only then are its copies shown. */
export const ownerIsCurrent = (owner: Owner | null, now: number): owner is Owner => owner !== null && owner.expiresAt > now;

/**
 * The expiry (ms) a JWT names in its `exp` claim, read without verifying it: the caller has
 * verified the token already. null when the token has no readable `exp`.
 */
export function jwtExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload || !/^[A-Za-z0-9_-]+$/.test(payload)) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const claims: unknown = JSON.parse(atob(base64));
    const exp = typeof claims === 'object' && claims !== null ? (claims as { exp?: unknown }).exp : undefined;
    return typeof exp === 'number' && Number.isFinite(exp) && exp > 0 ? exp * 1000 : null;
  } catch {
    return null;
  }
}
