/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Set by the middleware from the verified session cookie; null for anonymous visitors. */
    session: import('./server/auth/session.ts').Session | null;
  }
}
