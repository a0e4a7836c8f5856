/**
 * Build step of the installable app: once Astro has written the client files, list what the
 * service worker precaches (Workbox's getManifest, with revisions) and bundle src/sw/sw.ts with
 * that list into dist/client/sw.js (esbuild, the bundler Astro already brings). `astro dev` has no
 * service worker: the pages register one only in a production build.
 */
import type { AstroIntegration } from 'astro';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { OFFLINE_PATH, SERVICE_WORKER_PATH } from '../lib/pwa/appShell.ts';

/** What the app shell is made of, relative to the client output directory. */
const PRECACHE_GLOBS = ['_astro/**/*.{js,css}', `${OFFLINE_PATH.slice(1)}/index.html`, 'manifest.webmanifest', 'icons/*.png', 'favicon.svg'];
/** A bigger file is left to the network (and reported): the shell must stay quick to install. */
const MAX_PRECACHED_FILE_BYTES = 2 * 1024 * 1024;

export function serviceWorker(): AstroIntegration {
  let clientDir: URL | undefined;
  let root: URL | undefined;
  let assetsPrefix: string | undefined;
  return {
    name: 'polyindex:service-worker',
    hooks: {
      'astro:config:done': ({ config }) => {
        clientDir = config.build.client;
        root = config.root;
        assetsPrefix = typeof config.build.assetsPrefix === 'string' ? config.build.assetsPrefix.replace(/\/$/, '') : undefined;
      },
      'astro:build:done': async ({ logger }) => {
        if (!clientDir || !root) throw new Error('service worker: the build directories are unknown');
        // Loaded here, not at the top: the config (and so Vitest) imports this module on every run.
        const [{ getManifest }, { build }] = await Promise.all([import('workbox-build'), import('esbuild')]);
        const globDirectory = fileURLToPath(clientDir);
        const { manifestEntries = [], count, size, warnings } = await getManifest({
          globDirectory,
          globPatterns: PRECACHE_GLOBS,
          // Astro's hashed file names change with their content: no revision needed.
          dontCacheBustURLsMatching: /^_astro\//,
          maximumFileSizeToCacheInBytes: MAX_PRECACHED_FILE_BYTES,
          // With a CDN for the hashed files, the pages ask the CDN for them: precache those URLs.
          ...(assetsPrefix ? { modifyURLPrefix: { '_astro/': `${assetsPrefix}/_astro/` } } : {}),
          manifestTransforms: [
            // The offline page is a directory index; the worker asks for it by its path.
            (entries) => ({ manifest: entries.map((e) => (e.url === `${OFFLINE_PATH.slice(1)}/index.html` ? { ...e, url: OFFLINE_PATH } : e)) }),
          ],
        });
        for (const warning of warnings) logger.warn(warning);
        if (!manifestEntries.some((e) => e.url === OFFLINE_PATH)) throw new Error(`service worker: ${OFFLINE_PATH} was not built`);

        const bundle = await build({
          entryPoints: [fileURLToPath(new URL('src/sw/sw.ts', root))],
          bundle: true,
          write: false,
          format: 'iife',
          target: 'es2022',
          minify: true,
          legalComments: 'none',
          define: {
            // Workbox's development logging is left out of a production bundle.
            'process.env.NODE_ENV': '"production"',
            'self.__WB_MANIFEST': JSON.stringify(manifestEntries),
          },
        });
        const worker = bundle.outputFiles[0];
        if (!worker) throw new Error('service worker: esbuild wrote nothing');
        await writeFile(new URL(`.${SERVICE_WORKER_PATH}`, clientDir), worker.contents);
        logger.info(`${SERVICE_WORKER_PATH} written: ${count} files precached (${Math.round(size / 1024)} KiB)`);
      },
    },
  };
}
