import { defineMiddleware } from 'astro:middleware';
import { createAccessMiddleware } from './server/auth/accessMiddleware.ts';
import { assertSafeToServe, auth, store } from './server/runtime.ts';

export const onRequest = defineMiddleware(createAccessMiddleware({ auth, store, preflight: () => assertSafeToServe() }));
