/**
 * Headers every answer carries, whichever lane or file server produced it. The access
 * middleware (src/server/auth/accessMiddleware.ts) sets the same three on Astro's answers.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};
