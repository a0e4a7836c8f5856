/**
 * The per-request part of the Content-Security-Policy (src/lib/csp.ts): on a page rendered on
 * demand, the third parties its family needs in the configured mode, and `frame-ancestors`,
 * merged into the policy header Astro computed for the page (site policy and hashes).
 */
import type { MiddlewareHandler } from 'astro';
import { cspAdditions, mergePolicy, pageNeeds, type CspMode } from '../../lib/csp.ts';

const HEADER = 'content-security-policy';

export function createCspMiddleware(mode: () => CspMode): MiddlewareHandler {
  return async (context, next) => {
    // Prerendered pages carry the build's <meta> policy.
    if (context.isPrerendered) return next();
    const response = await next();
    const policy = response.headers.get(HEADER);
    // Only documents have one (endpoints, redirects and images do not).
    if (!policy) return response;
    const merged = mergePolicy(policy, cspAdditions(mode(), pageNeeds(context.url.pathname)));
    try {
      response.headers.set(HEADER, merged);
      return response;
    } catch {
      // A response with immutable headers (e.g. from fetch): copy it.
      const headers = new Headers(response.headers);
      headers.set(HEADER, merged);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
  };
}
