/**
 * Browser contexts kept for a whole worker, one per kind of visitor (a role at a screen size),
 * for specs that only look: the layout check and the route walk open hundreds of pages as the
 * same few people. A fresh context per test fetched and compiled every script and font again
 * (its cache is empty) and cost about half of each test on a busy machine; a kept one keeps its
 * HTTP cache, as a person's browser does from one page to the next. The layout check goes from
 * page to page in one tab of each context (layout.spec.ts); the route walk only asks the server.
 * Specs that change state (sign-out, settings, payments) keep Playwright's fresh context per test.
 */
import { test as base, type BrowserContext, type BrowserContextOptions } from '@playwright/test';

/**
 * A kept context's request client holds its idle connections for as long as the worker lives;
 * the server closes them after a while, and a GET sent just as that close arrives meets a reset
 * (ECONNRESET). A browser sends such a GET again on a new connection; Playwright's client does so
 * when asked (it retries only ECONNRESET), so the specs' GETs on kept contexts ask for it once.
 */
export const KEPT_CONNECTION_RETRIES = 1;

export interface KeptContexts {
  /** The worker's context for `key`, made with `options()` the first time it is asked for. */
  get(key: string, options: () => Promise<BrowserContextOptions> | BrowserContextOptions): Promise<BrowserContext>;
}

export const test = base.extend<object, { keptContexts: KeptContexts }>({
  keptContexts: [
    async ({ browser }, use) => {
      const kept = new Map<string, Promise<BrowserContext>>();
      await use({
        get(key, options) {
          let context = kept.get(key);
          if (!context) {
            context = Promise.resolve(options()).then((made) => browser.newContext(made));
            kept.set(key, context);
            // A context that could not be made is asked for again by the next test, not kept failed.
            context.catch(() => kept.delete(key));
          }
          return context;
        },
      });
      await Promise.allSettled([...kept.values()].map(async (context) => (await context).close()));
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';
