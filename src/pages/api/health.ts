import type { APIRoute } from 'astro';
import { json, jsonError } from '../../server/http/responses.ts';
import { store, storeBackend } from '../../server/runtime.ts';

/**
 * For a load balancer: 200 when this instance can read its store (one small read), 503 when
 * it cannot, so the proxy sends traffic elsewhere. No details of the failure leave the server.
 */
export const GET: APIRoute = async () => {
  try {
    await (await store()).listBanners();
    return json({ ok: true, store: storeBackend() });
  } catch (error) {
    console.error('[health] store check failed:', error);
    return jsonError(503, 'store_unavailable', 'The data store does not answer.');
  }
};
