/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Set by the middleware from the verified session cookie; null for anonymous visitors (and see sessionUnchecked). */
    session: import('./server/auth/session.ts').Session | null;
    /**
     * Set by the middleware when the session cookie could not be checked, naming the service that
     * cannot be reached. `session` is then null, but the visitor is not known to be anonymous:
     * /api/session answers 503 and the viewer header names nobody.
     */
    sessionUnchecked?: 'auth' | 'store' | undefined;
    /**
     * Set by the middleware: the visitor's session with the user record read from the store, not
     * the per-process copy. A page that decides access itself calls it before it refuses, as the
     * middleware does ("a refusal is never made on the copy", docs/decisions.md "User records").
     */
    freshSession?: (() => Promise<import('./server/auth/session.ts').Session | null>) | undefined;
    /** Set by the middleware before it shows the 503 page: the service that cannot be reached. */
    unavailable?: import('./server/outages.ts').Dependency | undefined;
  }
}
