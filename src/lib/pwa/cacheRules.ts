/**
 * What the service worker may keep, and where. Public pages go to a shared cache; the price
 * screens and data answers of a signed-in subscriber go to private caches that belong to one
 * viewer and are dropped on sign-out (see viewer.ts). Everything else is never stored.
 */
import { requirementOf } from '../access/policy.ts';
import { normalizePath } from '../access/publicPaths.ts';

export type CacheKind = 'public' | 'private' | 'never';

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * Never stored, whatever they answer: sign-in and sign-out, payments, the admin area, the session
 * answer, jobs and webhooks, downloads, forms that send mail, delivery settings and the signed
 * unsubscribe links.
 */
const NEVER_STORED = [
  '/api/auth', '/api/payments', '/api/makePayment', '/api/admin', '/admin', '/api/session', '/api/health', '/api/jobs',
  '/api/whatsapp', '/api/export', '/api/sendMail', '/api/enquiries', '/api/profile', '/api/alerts', '/alerts', '/api/unsubscribe',
  '/unsubscribe',
];

/**
 * Where a same-origin GET of this path may be kept, from the path alone (the answer may still
 * refuse: see mayKeep). Gated screens and data (the policy's `limited` and `full`) are private;
 * account and payment pages (`signedIn`) and the admin area are never kept.
 */
export function cacheKindOf(pathname: string): CacheKind {
  const path = normalizePath(pathname);
  if (path.startsWith('/__polyindex/') || NEVER_STORED.some((prefix) => under(path, prefix))) return 'never';
  switch (requirementOf(path)) {
    case 'public':
      return 'public';
    case 'limited':
    case 'full':
      return 'private';
    default:
      return 'never';
  }
}

/** The directive names of a Cache-Control header, lower-cased (`private, max-age=60` → private, max-age). */
export function cacheDirectives(header: string | null | undefined): Set<string> {
  const names = (header ?? '')
    .split(',')
    .map((part) => part.split('=')[0]!.trim().toLowerCase())
    .filter((name) => name.length > 0);
  return new Set(names);
}

/**
 * True when an answer may be kept in a cache of this kind: a 200 that does not say `no-store`.
 * A public path answering `private` was shaped for its visitor, so the shared cache refuses it.
 */
export function mayKeep(kind: CacheKind, status: number, cacheControl: string | null | undefined): boolean {
  if (kind === 'never' || status !== 200) return false;
  const directives = cacheDirectives(cacheControl);
  if (directives.has('no-store')) return false;
  return kind === 'private' || !directives.has('private');
}

/** Sign-in and sign-out: the private copies are forgotten as such a request leaves the device. */
export const SESSION_CHANGE_PATHS: readonly string[] = ['/api/auth/session', '/api/auth/logout'];
/** Every full page asks this who its visitor is; the answer names the viewer (see viewer.ts). */
export const SESSION_ANSWER_PATH = '/api/session';

/**
 * True when a gated answer says nobody is signed in any more (401 to a private path: the session
 * expired or was revoked). The copies kept for the owner then go. A 403 only says this visitor's
 * plan lacks that one path, and is simply not kept.
 */
export const saysSignedOut = (kind: CacheKind, status: number): boolean => kind === 'private' && status === 401;

/**
 * True when a gated answer says the site cannot answer right now (503: the store or Firebase is
 * down, see the access middleware): the owner's kept copy, stamped, stands in for it, as offline.
 * Without a kept copy the 503 itself is shown.
 */
export const outageAnswer = (kind: CacheKind, status: number): boolean => kind === 'private' && status === 503;
