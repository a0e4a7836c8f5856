/**
 * The site's node:http server: the fast lane first, then the built files, then Astro; and the
 * graceful stop a process manager expects on SIGTERM: stop accepting connections, let the
 * requests in flight finish (idle keep-alive connections are closed at once, busy ones after
 * their answer), then run the closers (background jobs, the store with its WAL checkpoint) and
 * resolve — all within `drainMs`; requests still running then are cut off.
 * No astro:* imports: the drain test runs it on its own.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { NodeLane } from '../lanes/fastLane.ts';
import type { StaticHandler } from './staticFiles.ts';

export interface SiteServerOptions {
  /** Lanes tried in order; the first that returns true answers. */
  readonly lanes: readonly NodeLane[];
  readonly staticFiles?: StaticHandler | undefined;
  /** Everything else (Astro's middleware-mode handler). */
  readonly fallback: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
}

export interface SiteServer {
  readonly server: Server;
  listen(port: number, host: string): Promise<number>;
  /**
   * Stops accepting, waits for the requests in flight (at most `drainMs`), then runs `closers`
   * in order. Resolves with true when every request finished on its own.
   */
  stop(options: { drainMs: number; closers: readonly (() => Promise<void>)[] }): Promise<boolean>;
}

/** How long an idle keep-alive connection stays open (see below). */
export const KEEP_ALIVE_MS = 65_000;

export function createSiteServer({ lanes, staticFiles, fallback }: SiteServerOptions): SiteServer {
  let inFlight = 0;
  let stopping = false;
  let idle: (() => void) | null = null;

  const server = createServer((req, res) => {
    inFlight++;
    res.once('close', () => {
      inFlight--;
      if (inFlight === 0) idle?.();
    });
    // While stopping, each answer closes its connection: no new request rides on it.
    if (stopping) res.setHeader('Connection', 'close');
    for (const lane of lanes) if (lane(req, res)) return;
    const toAstro = () => {
      Promise.resolve(fallback(req, res)).catch((error: unknown) => {
        console.error(`[server] ${req.method} ${req.url} failed:`, error);
        if (!res.headersSent) {
          res.writeHead(500);
          res.end();
        } else res.destroy();
      });
    };
    if (staticFiles) staticFiles(req, res, toAstro);
    else toAstro();
  });
  // Node closes an idle keep-alive connection after 5 s. A proxy or client that keeps its idle
  // connections longer can send its next request just as that close arrives and gets a reset
  // (a 502 behind a load balancer; a test runner met it as ECONNRESET). Idle connections live
  // longer than the usual 60 s proxy idle timeout, so the proxy closes first; headers must still
  // arrive in time.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;

  return {
    server,
    listen(port, host) {
      return new Promise((ok, fail) => {
        server.once('error', fail);
        server.listen(port, host, () => {
          server.off('error', fail);
          const address = server.address();
          ok(typeof address === 'object' && address ? address.port : port);
        });
      });
    },
    async stop({ drainMs, closers }) {
      stopping = true;
      const closed = new Promise<void>((ok) => server.close(() => ok()));
      server.closeIdleConnections();
      const drained = inFlight === 0 || (await new Promise<boolean>((ok) => {
        const timer = setTimeout(() => ok(false), drainMs);
        timer.unref();
        idle = () => {
          clearTimeout(timer);
          ok(true);
        };
      }));
      // Keep-alive connections that became idle after their last answer, and anything cut off.
      server.closeAllConnections();
      await closed;
      for (const close of closers) {
        try {
          await close();
        } catch (error) {
          console.error('[server] while stopping:', error);
        }
      }
      return drained;
    },
  };
}

/**
 * SIGTERM/SIGINT → `site.stop()` → exit 0, with a hard exit after `budgetMs` whatever hangs.
 * `closers` is read at signal time (jobs started after the server listened are included).
 */
export function stopOnSignals(
  site: SiteServer,
  { budgetMs, drainMs, closers, log = console }: { budgetMs: number; drainMs: number; closers: () => readonly (() => Promise<void>)[]; log?: Pick<Console, 'log' | 'error'> },
): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.log(`[polyindex] ${signal}: finishing requests in flight, then stopping`);
    setTimeout(() => {
      log.error(`[polyindex] could not stop within ${budgetMs} ms; exiting`);
      process.exit(1);
    }, budgetMs).unref();
    void site.stop({ drainMs, closers: closers() }).then((drained) => {
      if (!drained) log.error('[polyindex] some requests were still running and were cut off');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
