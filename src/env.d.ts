/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Set by the middleware from the verified session cookie; null for anonymous visitors. */
    session: import('./server/auth/session.ts').Session | null;
    /** Set by the middleware before it shows the 503 page: the service that cannot be reached. */
    unavailable?: import('./server/outages.ts').Dependency | undefined;
  }
}
