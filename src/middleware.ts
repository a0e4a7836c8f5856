import { defineMiddleware, sequence } from 'astro:middleware';
import { createAccessMiddleware } from './server/auth/accessMiddleware.ts';
import { conditionalGet } from './server/http/conditionalGet.ts';
import { viewerMiddleware } from './server/pwa/viewer.ts';
import { assertSafeToServe, auth, store } from './server/runtime.ts';

export const onRequest = sequence(
  // Outermost: it reads the session and Cache-Control the access middleware settles.
  viewerMiddleware,
  defineMiddleware(createAccessMiddleware({ auth, store, preflight: () => assertSafeToServe() })),
  // Innermost: public pages (the news) get their ETag, and 304 when the client has them.
  conditionalGet,
);
