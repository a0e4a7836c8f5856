/** GET /api/carousels/ → the banner list (public; the body is the list itself). */
import type { APIRoute } from 'astro';
import { cachedJson, PUBLIC_CACHE } from '../../../server/http/json.ts';
import { getStore } from '../../../server/runtime.ts';

export const GET: APIRoute = async ({ request }) => {
  const store = await getStore();
  return cachedJson(request, await store.listBanners(), { cacheControl: PUBLIC_CACHE });
};
