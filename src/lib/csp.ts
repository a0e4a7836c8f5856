/**
 * The Content-Security-Policy beyond the site-wide one of astro.config.mjs (`security.csp`:
 * 'self' plus Astro's hashes of its own scripts and styles, no 'unsafe-inline' for scripts).
 * Only two page families talk to anyone else, and whom depends on run-time configuration:
 *
 * - sign-in (`/register`): the Firebase Auth emulator on loopback, or Google's identity
 *   endpoints, reCAPTCHA (phone sign-in) and the project's auth domain (the Google pop-up);
 * - checkout (`/subscription`): Razorpay Checkout with live keys; nothing in the sandbox,
 *   whose dialog is our own.
 *
 * One build serves every mode, so these sources are added per request by the middleware to
 * the policy header Astro sends with a page rendered on demand (`mergePolicy`). Prerendered
 * pages keep the build's `<meta>` policy and need no third party.
 */

/**
 * The site-wide directives (besides script-src and style-src, which Astro writes with its
 * hashes). Listed in full so the per-request additions below merge into them.
 */
export const SITE_CSP_DIRECTIVES = [
  "default-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
] as const;

export type AuthMode =
  | { readonly kind: 'emulator'; /** e.g. http://127.0.0.1:9099 */ readonly url: string }
  | { readonly kind: 'firebase'; /** e.g. polyindex.firebaseapp.com */ readonly authDomain: string };

export interface CspMode {
  readonly auth: AuthMode;
  readonly payments: 'razorpay' | 'sandbox';
}

export type PageNeed = 'signIn' | 'checkout';

/** Which page needs what: the one table (a new page with a third party adds its row). */
const PAGE_NEEDS: readonly { readonly path: string; readonly needs: readonly PageNeed[] }[] = [
  { path: '/register', needs: ['signIn'] },
  { path: '/subscription', needs: ['checkout'] },
];

export function pageNeeds(pathname: string): readonly PageNeed[] {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return PAGE_NEEDS.find((row) => row.path === path)?.needs ?? [];
}

export interface CspAdditions {
  /** Whole directives, merged by Astro into the same-named ones of the site policy. */
  readonly directives: readonly string[];
  /** Sources added to `script-src` beside 'self' and the hashes. */
  readonly scriptResources: readonly string[];
}

/** Google's endpoints the Firebase Auth web SDK calls (token exchange, account look-ups). */
export const FIREBASE_CONNECT = ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com', 'https://www.googleapis.com'] as const;
/** Scripts the SDK loads: gapi for the Google pop-up's channel, reCAPTCHA for phone sign-in. */
export const FIREBASE_SCRIPTS = ['https://apis.google.com', 'https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'] as const;
/** Frames: reCAPTCHA's challenge (the auth domain's own frame is added per project). */
export const FIREBASE_FRAMES = ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'] as const;

/** Razorpay Checkout: its script, its payment frame, and the calls and images of its script. */
export const RAZORPAY_SCRIPTS = ['https://checkout.razorpay.com'] as const;
export const RAZORPAY_FRAMES = ['https://api.razorpay.com'] as const;
export const RAZORPAY_CONNECT = ['https://api.razorpay.com', 'https://lumberjack.razorpay.com'] as const;
export const RAZORPAY_IMAGES = ['https://cdn.razorpay.com'] as const;

/**
 * An origin fit for a policy: scheme, host and optional port, nothing a header could be split
 * on. Configuration is trusted, but a stray space or semicolon must not become a directive.
 */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password) return null;
    return parsed.origin;
  } catch {
    return null;
  }
}

const hostOnly = (authDomain: string): string | null =>
  /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+(?::\d{1,5})?$/i.test(authDomain) ? `https://${authDomain}` : null;

/** What a page rendered on demand adds to the site policy, for this mode and these needs. */
export function cspAdditions(mode: CspMode, needs: readonly PageNeed[]): CspAdditions {
  // Delivered as a header here, so the directive a <meta> policy cannot carry applies.
  const directives: string[] = ["frame-ancestors 'none'"];
  const scriptResources: string[] = [];
  const connect: string[] = [];
  const frames: string[] = [];
  const images: string[] = [];

  if (needs.includes('signIn')) {
    if (mode.auth.kind === 'emulator') {
      const origin = originOf(mode.auth.url);
      if (origin) connect.push(origin);
    } else {
      connect.push(...FIREBASE_CONNECT);
      scriptResources.push(...FIREBASE_SCRIPTS);
      frames.push(...FIREBASE_FRAMES);
      const authOrigin = hostOnly(mode.auth.authDomain);
      if (authOrigin) frames.push(authOrigin);
    }
  }
  if (needs.includes('checkout') && mode.payments === 'razorpay') {
    scriptResources.push(...RAZORPAY_SCRIPTS);
    frames.push(...RAZORPAY_FRAMES);
    connect.push(...RAZORPAY_CONNECT);
    images.push(...RAZORPAY_IMAGES);
  }

  if (connect.length > 0) directives.push(`connect-src ${connect.join(' ')}`);
  if (frames.length > 0) directives.push(`frame-src ${frames.join(' ')}`);
  if (images.length > 0) directives.push(`img-src ${images.join(' ')}`);
  return { directives, scriptResources };
}

/** A policy as its directives: name → sources, in order. */
function parsePolicy(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/).filter(Boolean);
    // The first of two same-named directives is the one browsers apply.
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

function addSources(directives: Map<string, string[]>, name: string, sources: readonly string[]): void {
  const existing = directives.get(name);
  if (!existing) {
    directives.set(name, [...sources]);
    return;
  }
  // 'none' alone means nothing; beside a source it is ignored with a console warning.
  const kept = existing.filter((source) => source !== "'none'");
  directives.set(name, [...kept, ...sources.filter((source) => !kept.includes(source))]);
}

/** The policy with the additions merged in (same-named directives share their sources). */
export function mergePolicy(policy: string, additions: CspAdditions): string {
  const directives = parsePolicy(policy);
  for (const directive of additions.directives) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) addSources(directives, name.toLowerCase(), sources);
  }
  if (additions.scriptResources.length > 0) {
    addSources(directives, 'script-src', additions.scriptResources);
    // A script-src-elem, where present, governs <script src>: it needs them too.
    if (directives.has('script-src-elem')) addSources(directives, 'script-src-elem', additions.scriptResources);
  }
  return [...directives].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}
