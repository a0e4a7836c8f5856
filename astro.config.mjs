// @ts-check
import { defineConfig, envField } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { fileURLToPath } from 'node:url';
import { SITE_CSP_DIRECTIVES } from './src/lib/csp.ts';
import { SETTINGS, readConfig } from './src/server/config/settings.ts';
import { serviceWorker } from './src/integrations/serviceWorker.ts';

/**
 * Jobs start with the server process, not on its first request: the adapter's server entry (the
 * module `dist/server/entry.mjs` is built from, standalone or middleware mode) imports
 * src/server/jobs/atStart.ts once it has set up astro:env. Build only: dev and Vitest never
 * load it, so no scheduler runs there.
 */
/** @type {import('vite').Plugin} */
const jobsAtServerStart = {
  name: 'polyindex:jobs-at-server-start',
  apply: 'build',
  transform(code, id) {
    if (!id.replace(/\\/g, '/').endsWith('/@astrojs/node/dist/server.js')) return null;
    const atStart = fileURLToPath(new URL('./src/server/jobs/atStart.ts', import.meta.url));
    // A dynamic import at the end of the module body: it runs after setGetEnv (static imports would run before it).
    return { code: `${code}\nimport(${JSON.stringify(atStart)});\n`, map: null };
  },
};

// The settings the build itself reads (the one reading of them: src/server/config/settings.ts).
const settings = readConfig((name) => process.env[name]);
const publicOrigin = settings.siteUrl ? new URL(settings.siteUrl) : null;

/**
 * The astro:env schema, made from the one list of settings. `secret` here means "read from the
 * environment at run time": public server variables are inlined at build time, and one build must
 * serve every configuration (tests, dev, production). Only the contact details, shown on
 * prerendered pages, are fixed at build time (docs/decisions.md).
 */
function envSchema() {
  /** @type {[string, import('./src/server/config/settings.ts').SettingField][]} */
  const fields = Object.entries(SETTINGS);
  return Object.fromEntries(
    fields.map(([name, field]) => {
      const access = field.inlined ? 'public' : 'secret';
      const presence = field.default !== undefined ? { default: field.default } : { optional: true };
      return [name, field.values ? envField.enum({ context: 'server', access, values: [...field.values], ...presence }) : envField.string({ context: 'server', access, ...presence })];
    }),
  );
}

/**
 * Builds the server process's entry (src/server/entry/serve.ts → dist/server/serve.mjs) in the
 * same server bundle as Astro's pages, so the fast lane and the pages share their modules (one
 * store, one Firebase Auth, one session cache) instead of each loading its own copy.
 * @returns {import('vite').Plugin}
 */
function serverEntry() {
  return {
    name: 'polyindex:server-entry',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    buildStart() {
      this.emitFile({ type: 'chunk', id: fileURLToPath(new URL('./src/server/entry/serve.ts', import.meta.url)), fileName: 'serve.mjs' });
    },
  };
}

export default defineConfig({
  site: settings.siteUrl ?? `http://${settings.host === '0.0.0.0' ? '127.0.0.1' : settings.host}:${settings.port}`,
  output: 'server',
  // A CDN origin for the hashed /_astro/ files (build time; see docs/deploy.md). Unset: same origin.
  ...(settings.assetsPrefix ? { build: { assetsPrefix: settings.assetsPrefix } } : {}),
  // The largest body an endpoint accepts is the admin CSV import; everything else reads 64 KiB.
  // Middleware mode: dist/server/serve.mjs (src/server/entry/serve.ts) is the server, with the
  // data API's fast lane in front of Astro (docs/architecture.md, "The request path").
  adapter: node({ mode: 'middleware', bodySizeLimit: 8 * 1024 * 1024 }),
  vite: { plugins: [serverEntry(), jobsAtServerStart] },
  integrations: [
    react(),
    // The sitemap is an endpoint (src/pages/sitemap-0.xml.ts): it lists posts from the store.
    // The installable app: /sw.js with its precache list, written after the client build.
    serviceWorker(),
  ],
  // No `server.host`/`port` here: the adapter would bake them into the build. HOST and PORT are
  // read when the server starts, and unset HOST means localhost (the loopback guard agrees).
  // Behind a proxy, trust X-Forwarded-Host/Proto only for the public origin, so Astro.url and
  // the same-origin checks see https://<site> rather than the proxy's plain-HTTP hop.
  security: {
    // Astro's cross-site form check cannot exempt RFC 8058's one-click unsubscribe: src/middleware.ts runs it first instead (src/lib/http/crossSite.ts).
    checkOrigin: false,
    allowedDomains: publicOrigin ? [{ protocol: publicOrigin.protocol.replace(':', ''), hostname: publicOrigin.hostname }] : [],
    // Content-Security-Policy: 'self' and the hashes of Astro's own scripts and styles, never
    // 'unsafe-inline' for scripts. Prerendered pages carry it in a <meta>; pages rendered on
    // demand in a header, with the third parties of the configured mode added by the
    // middleware (src/lib/csp.ts: the Auth emulator or Google, Razorpay or the sandbox).
    csp: {
      algorithm: 'SHA-256',
      directives: [...SITE_CSP_DIRECTIVES],
      scriptDirective: { resources: ["'self'"] },
      // Style *attributes* only (style-src-attr): the server-rendered chart SVG (nivo) positions
      // its parts with them. Style elements and sheets stay 'self' (Astro's default) + hashes.
      styleDirective: { resources: [{ resource: "'unsafe-inline'", kind: 'attribute' }] },
    },
  },
  // Shiki colours code with inline styles, which the Content-Security-Policy refuses; Prism
  // marks tokens with classes instead.
  markdown: { syntaxHighlight: 'prism' },
  // Images through astro:assets: Sharp with quality 75 unless a page asks otherwise. `/_image`
  // is Astro's endpoint behind the site's limits (widths, formats, a resize queue).
  image: {
    endpoint: { route: '/_image', entrypoint: './src/server/images/endpoint.ts' },
    service: {
      entrypoint: 'astro/assets/services/sharp',
      config: { jpeg: { quality: 75 }, webp: { quality: 75 }, avif: { quality: 75 }, png: { quality: 75 } },
    },
  },
  env: { schema: envSchema() },
});
