/**
 * The process's page cache (./cache.ts) over the process's store: the server entry's lane and
 * Astro's middleware share it (one bundle, one module graph).
 */
import { store } from '../runtime.ts';
import { createPageCache } from './cache.ts';

export const pageCache = createPageCache({ changes: store });
