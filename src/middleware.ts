import { defineMiddleware, sequence } from 'astro:middleware';
import { createAccessMiddleware } from './server/auth/accessMiddleware.ts';
import { conditionalGet } from './server/http/conditionalGet.ts';
import { assertSafeToServe, auth, store } from './server/runtime.ts';

// Access first (it may answer without rendering); public pages then get their ETag / 304.
export const onRequest = sequence(defineMiddleware(createAccessMiddleware({ auth, store, preflight: () => assertSafeToServe() })), conditionalGet);
