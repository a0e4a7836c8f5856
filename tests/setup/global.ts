// Vitest global setup, in the main process before any worker starts.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // 1. Vitest runs Astro's Vite plugins in "serve" mode, where `astro:content` reads the data
  //    store from `.astro/data-store.json`; `astro sync` writes it to the cache dir
  //    (`node_modules/.astro/`). Copy the synced store where the dev-mode loader looks.
  const synced = 'node_modules/.astro/data-store.json';
  const devStore = '.astro/data-store.json';
  if (existsSync(synced) && !(existsSync(devStore) && statSync(devStore).mtimeMs >= statSync(synced).mtimeMs)) {
    mkdirSync('.astro', { recursive: true });
    copyFileSync(synced, devStore);
  }

  // 2. astro:env/server resolves DATA_DIR from this process's environment when a test first
  //    imports it: point it at a throw-away directory so tests never touch ./data.
  const dataDir = mkdtempSync(join(tmpdir(), 'polyindex-vitest-'));
  process.env['DATA_DIR'] = dataDir;
  return () => rmSync(dataDir, { recursive: true, force: true });
}
