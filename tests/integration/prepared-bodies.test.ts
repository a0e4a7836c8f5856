/**
 * Prepared API bodies are kept per store: a write version says nothing of another store's data,
 * so two stores in one process (tests, `store:copy`) at the same version never answer each
 * other's bodies. Seen in the suite: /api/carousels/ answered another store's banner list.
 */
import { mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { carousels } from '../../src/server/api/carousels.ts';
import type { EndpointContext } from '../../src/server/edge/endpoint.ts';
import { openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { TEST_DATA_DIR } from './env.ts';

const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
});

async function storeWithBanner(id: string): Promise<Store> {
  const store = await openStore({ url: sqliteUrlFor(resolve(mkdtempSync(join(TEST_DATA_DIR, 'prepared-')))) });
  stores.push(store);
  await store.replaceBanners([{ id, title: id, subtitle: '', href: '/', image: '/banners/feedstock-curve.svg', alt: id, order: 1 }]);
  return store;
}

const listOf = async (store: Store): Promise<string[]> => {
  const answer = await carousels({ store: async () => store, headers: new Headers() } as unknown as EndpointContext);
  const body = answer instanceof Response ? await answer.text() : String(answer.body);
  return (JSON.parse(body) as { id: string }[]).map((banner) => banner.id);
};

it('answers each store its own banner list, though both stores are at the same write version', async () => {
  const [a, b] = [await storeWithBanner('banner-a'), await storeWithBanner('banner-b')];
  expect(a.version()).toBe(b.version());
  expect(await listOf(a)).toEqual(['banner-a']);
  expect(await listOf(b)).toEqual(['banner-b']);
});
