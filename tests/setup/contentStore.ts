// Vitest runs Astro's Vite plugins in "serve" mode, where `astro:content` reads the content
// data store from `.astro/data-store.json`; `astro sync` writes it to the cache dir
// (`node_modules/.astro/`). Copy the synced store where the dev-mode loader looks for it, so
// `getCollection` sees the collections in tests (run `astro sync` first: `npm run test:unit`).
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';

export default function setup(): void {
  const synced = 'node_modules/.astro/data-store.json';
  const devStore = '.astro/data-store.json';
  if (!existsSync(synced)) return;
  if (existsSync(devStore) && statSync(devStore).mtimeMs >= statSync(synced).mtimeMs) return;
  mkdirSync('.astro', { recursive: true });
  copyFileSync(synced, devStore);
}
