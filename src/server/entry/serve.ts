/**
 * The production server process (`npm start` and the end-to-end suite run it as
 * dist/server/serve.mjs; astro.config.mjs builds it beside Astro's own entry, in the same bundle,
 * so the fast lane and the pages share one store, one Firebase Auth and one session cache):
 *
 *   request → fast lane (the data API's reads, src/server/lanes/fastLane.ts)
 *           → the gate's screen (src/server/edge/screen.ts: TRACE, a bad Host, loopback only)
 *           → kept public pages for visitors without a session (src/server/pageCache)
 *           → built files (dist/client; text files compressed once, from memory)
 *           → Astro (@astrojs/node in middleware mode: pages, every other endpoint, 404)
 *
 * Both lanes run the one request gate (src/server/edge/gate.ts). HOST and PORT come from the
 * configuration (src/server/config). Unsafe modes (the Auth emulator or a stand-in on a
 * non-loopback address) are refused before anything listens.
 * SIGTERM/SIGINT drain: stop accepting, finish what is in flight, stop background jobs, close
 * the store (WAL checkpoint), exit 0 — within STOP_BUDGET_MS.
 */
import { fileURLToPath } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sessionFromCookie } from '../auth/currentSession.ts';
import { createStaticFiles } from '../http/staticFiles.ts';
import { createSiteServer, stopOnSignals } from '../http/siteServer.ts';
import { createEdgeScreen, createFastLane } from '../lanes/fastLane.ts';
import { createPageCacheLane } from '../pageCache/lane.ts';
import { pageCache } from '../pageCache/index.ts';
import { stopScheduler } from '../jobs/scheduler.ts';
import { config } from '../config/index.ts';
import { assertSafeToServe, auth, closeStore, servesLoopbackOnly, store } from '../runtime.ts';

/** Everything from SIGTERM to exit; process managers (systemd, Kubernetes) wait about this long. */
export const STOP_BUDGET_MS = 10_000;
/** The part of it requests in flight may take; the rest is for jobs and the store. */
const DRAIN_MS = 7_000;

const { host, port } = config;

try {
  assertSafeToServe(host);
} catch (error) {
  console.error(`[polyindex] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

type MiddlewareHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => Promise<void>;
// Astro's entry sits beside this file in dist/server; it is loaded at run time, not bundled again.
const astro = (await import(/* @vite-ignore */ new URL('./entry.mjs', import.meta.url).href)) as { handler: MiddlewareHandler };

const site = createSiteServer({
  lanes: [
    createFastLane({
      store,
      // The store is opened only for a cookie that verifies, as in the Astro lane.
      session: (cookie, now, options) => sessionFromCookie({ auth: auth(), store }, cookie, now, options),
      loopbackOnly: servesLoopbackOnly,
    }),
    // Everything the fast lane passes on is screened before the files and Astro.
    createEdgeScreen({ loopbackOnly: servesLoopbackOnly }),
    // Public pages kept in memory, for visitors without a session (src/server/pageCache).
    createPageCacheLane(pageCache),
  ],
  staticFiles: createStaticFiles(fileURLToPath(new URL('../client/', import.meta.url))),
  fallback: (req, res) => astro.handler(req, res),
});

/**
 * Background work that lives as long as the server process, stopped in the drain before the
 * store closes. The daily-update scheduler starts when Astro's entry above is loaded
 * (astro.config.mjs, `jobsAtServerStart` → src/server/jobs/atStart.ts); it is stopped here. More
 * jobs: start them after `listen` and add their stop here.
 */
const jobs: { stop(): Promise<void> }[] = [{ stop: async () => stopScheduler() }];

const listening = await site.listen(port, host);
console.log(`[polyindex] listening on http://${host}:${listening}/`);

stopOnSignals(site, { budgetMs: STOP_BUDGET_MS, drainMs: DRAIN_MS, closers: () => [...jobs.map((job) => () => job.stop()), closeStore] });
