/** GET /api/carousels/ → the banner list (public; the body is the list itself). */
import type { ApiAnswer } from '../http/answer.ts';
import { preparedAnswer, PUBLIC_CACHE } from '../http/json.ts';
import type { ApiContext } from './context.ts';
import { preparedBodies } from './prepared.ts';

export async function carousels({ store, headers }: ApiContext): Promise<ApiAnswer> {
  const { body, etag } = await preparedBodies.get('carousels', store.version(), async () => JSON.stringify(await store.listBanners()));
  return preparedAnswer({ headers }, body, { etag, cacheControl: PUBLIC_CACHE });
}
