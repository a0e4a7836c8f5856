/**
 * The files of a project with `isolate: false` (vitest.config.ts: unit, contract, integration)
 * share one worker and module graph:
 * whatever a file left changed in it — fake timers, spies, stubbed variables or globals — is put
 * back when the file ends, so the next file starts as if alone. (A file that closes the Astro
 * runtime's store uses `closeStore()`, so the next one reopens it.)
 */
import { afterAll, vi } from 'vitest';

afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
