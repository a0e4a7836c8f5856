import { defineMiddleware, sequence } from 'astro:middleware';
import { createAccessMiddleware } from './server/auth/accessMiddleware.ts';
import { crossSiteMiddleware } from './server/http/crossSite.ts';
import { viewerMiddleware } from './server/pwa/viewer.ts';
import { assertSafeToServe, auth, store } from './server/runtime.ts';

export const onRequest = sequence(
  // First: a cross-site form POST is refused before anything reads a cookie (Astro's check, with one exemption).
  crossSiteMiddleware,
  // It reads the session and Cache-Control the access middleware settles.
  viewerMiddleware,
  defineMiddleware(createAccessMiddleware({ auth, store, preflight: () => assertSafeToServe() })),
);
