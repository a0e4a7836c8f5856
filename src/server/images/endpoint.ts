/**
 * `/_image` (astro.config.mjs `image.endpoint`): Astro's own Node image endpoint behind the
 * site's rules, the bound on concurrent resizes and the cache of ./resizer.ts. A request our
 * pages never make is a 4xx naming the parameter, before any file is read; past the queue, 503
 * with Retry-After.
 */
import { GET as astroImageEndpoint } from 'astro/assets/endpoint/node';
import { createImageEndpoint } from './resizer.ts';

export const GET = createImageEndpoint({ resize: async (context) => astroImageEndpoint(context) }).GET;
