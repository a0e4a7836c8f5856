import { defineMiddleware, sequence } from 'astro:middleware';
import { createAccessMiddleware } from './server/auth/accessMiddleware.ts';
import { viewerMiddleware } from './server/pwa/viewer.ts';
import { assertSafeToServe, auth, store } from './server/runtime.ts';

export const onRequest = sequence(
  // Outermost: it reads the session and Cache-Control the access middleware settles.
  viewerMiddleware,
  defineMiddleware(createAccessMiddleware({ auth, store, preflight: () => assertSafeToServe() })),
);
