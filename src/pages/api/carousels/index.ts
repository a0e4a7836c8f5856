/** GET /api/carousels/ → the banner list (public; the body is the list itself). */
import type { APIRoute } from 'astro';
import { createBodyCache } from '../../../server/http/bodyCache.ts';
import { cachedBody, PUBLIC_CACHE } from '../../../server/http/json.ts';
import { store as getStore } from '../../../server/runtime.ts';

const cache = createBodyCache({ max: 1 });

export const GET: APIRoute = async ({ request }) => {
  const store = await getStore();
  const { body, etag } = await cache.get('banners', store.version(), async () => JSON.stringify(await store.listBanners()));
  return cachedBody(request, body, { etag, cacheControl: PUBLIC_CACHE });
};
