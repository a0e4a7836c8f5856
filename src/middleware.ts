import { defineMiddleware, sequence } from 'astro:middleware';
import { createAccessMiddleware } from './server/lanes/astroLane.ts';
import { createPageAnswers } from './server/pageCache/lane.ts';
import { pageCache } from './server/pageCache/index.ts';
import { conditionalGet } from './server/http/conditionalGet.ts';
import type { CspMode } from './lib/csp.ts';
import { createCspMiddleware } from './server/http/csp.ts';
import { crossSiteMiddleware } from './server/http/crossSite.ts';
import { paymentMode } from './server/payments/index.ts';
import { assertSafeToServe, auth, firebaseWebConfig, servedPort, servesLoopbackOnly, store } from './server/runtime.ts';

/** Who the sign-in and checkout pages talk to in this configuration (see lib/csp.ts). */
const cspMode = (): CspMode => ({
  auth: firebaseWebConfig.emulatorUrl ? { kind: 'emulator', url: firebaseWebConfig.emulatorUrl } : { kind: 'firebase', authDomain: firebaseWebConfig.authDomain },
  payments: paymentMode,
});

export const onRequest = sequence(
  // Outermost: every answer compressed for its request, and public pages kept in memory (src/server/pageCache).
  defineMiddleware(createPageAnswers(pageCache)),
  // First: a cross-site form POST is refused before anything reads a cookie (Astro's check, with one exemption).
  crossSiteMiddleware,
  // It completes the policy header of whatever page the ones inside answer with.
  defineMiddleware(createCspMiddleware(cspMode)),
  // The request gate's Astro lane: the screen, who is calling, the policy, outages, the headers.
  defineMiddleware(createAccessMiddleware({ auth, store, preflight: () => assertSafeToServe(), loopbackOnly: servesLoopbackOnly, servedPort })),
  // Innermost: public pages (the news) get their ETag, and 304 when the client has them.
  conditionalGet,
);
