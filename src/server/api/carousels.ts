/** GET /api/carousels/ → the banner list (public; the body is the list itself). */
import type { ApiAnswer } from '../http/answer.ts';
import { preparedAnswer, PUBLIC_CACHE } from '../http/json.ts';
import type { EndpointContext } from '../edge/endpoint.ts';
import { preparedBodiesOf } from './prepared.ts';

export async function carousels({ store: open, headers }: EndpointContext): Promise<ApiAnswer> {
  const store = await open();
  const { body, etag } = await preparedBodiesOf(store).get('carousels', store.version(), async () => JSON.stringify(await store.listBanners()));
  return preparedAnswer({ headers }, body, { etag, cacheControl: PUBLIC_CACHE });
}
