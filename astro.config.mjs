// @ts-check
import { defineConfig, envField } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { fileURLToPath } from 'node:url';
import { SITE_CSP_DIRECTIVES } from './src/lib/csp.ts';
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

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 4321);
const publicOrigin = process.env.SITE_URL ? new URL(process.env.SITE_URL) : null;

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
  site: process.env.SITE_URL ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
  output: 'server',
  // A CDN origin for the hashed /_astro/ files (build time; see docs/deploy.md). Unset: same origin.
  ...(process.env.ASSETS_PREFIX ? { build: { assetsPrefix: process.env.ASSETS_PREFIX } } : {}),
  // The largest body an endpoint accepts is the admin CSV import; everything else reads 64 KiB.
  // Middleware mode: dist/server/serve.mjs (src/server/entry/serve.ts) is the server, with the
  // data API's fast lane in front of Astro (DESIGN §4).
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
  env: {
    // `secret` here means "read from the environment at run time": public server variables are
    // inlined at build time, and one build must serve every configuration (tests, dev, production).
    // Only the contact details, shown on prerendered pages, are fixed at build time.
    schema: {
      DATA_DIR: envField.string({ context: 'server', access: 'secret', default: './data' }),
      CONTACT_PHONE: envField.string({ context: 'server', access: 'public', default: '+91 22 4000 7000' }),
      CONTACT_GSTIN: envField.string({ context: 'server', access: 'public', default: '27AABCP1234F1ZU' }),
      CONTACT_EMAIL: envField.string({ context: 'server', access: 'public', default: 'desk@polyindex.test' }),
      // The supplier on GST tax invoices and credit notes (src/server/invoices/supplier.ts): its
      // legal name and registered address ("|" between lines); the GSTIN is CONTACT_GSTIN's.
      INVOICE_LEGAL_NAME: envField.string({ context: 'server', access: 'secret', default: 'PolyIndex Market Data Private Limited' }),
      INVOICE_ADDRESS: envField.string({ context: 'server', access: 'secret', default: '402 Trade Centre, Bandra Kurla Complex | Bandra (East), Mumbai 400051' }),
      ADMIN_PANEL_URL: envField.string({ context: 'server', access: 'secret', default: '/admin' }),
      // Firebase web config is public by design; the service account is the secret.
      FIREBASE_PROJECT_ID: envField.string({ context: 'server', access: 'secret', default: 'demo-polyindex' }),
      FIREBASE_API_KEY: envField.string({ context: 'server', access: 'secret', default: 'demo-api-key' }),
      FIREBASE_AUTH_DOMAIN: envField.string({ context: 'server', access: 'secret', optional: true }),
      FIREBASE_APP_ID: envField.string({ context: 'server', access: 'secret', optional: true }),
      FIREBASE_SERVICE_ACCOUNT: envField.string({ context: 'server', access: 'secret', optional: true }),
      FIREBASE_AUTH_EMULATOR_HOST: envField.string({ context: 'server', access: 'secret', optional: true }),
      // The store: `sqlite` (DATA_DIR file, or LIBSQL_URL) or `firestore` (the service account's
      // project, or FIRESTORE_EMULATOR_HOST). See src/server/store/open.ts.
      DATA_BACKEND: envField.enum({ context: 'server', access: 'secret', values: ['sqlite', 'firestore'], default: 'sqlite' }),
      FIRESTORE_EMULATOR_HOST: envField.string({ context: 'server', access: 'secret', optional: true }),
      FIRESTORE_DATABASE_ID: envField.string({ context: 'server', access: 'secret', optional: true }),
      LIBSQL_URL: envField.string({ context: 'server', access: 'secret', optional: true }),
      LIBSQL_AUTH_TOKEN: envField.string({ context: 'server', access: 'secret', optional: true }),
      // Payments: both keys set → Razorpay; otherwise the sandbox gateway (loopback only).
      RAZORPAY_KEY_ID: envField.string({ context: 'server', access: 'secret', optional: true }),
      RAZORPAY_KEY_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      RAZORPAY_WEBHOOK_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      SANDBOX_PAYMENT_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      // Mail: an SMTP URL sends for real; without one every message lands in DATA_DIR/outbox.
      SMTP_URL: envField.string({ context: 'server', access: 'secret', optional: true }),
      MAIL_FROM: envField.string({ context: 'server', access: 'secret', default: 'PolyIndex <desk@polyindex.test>' }),
      OPERATOR_EMAIL: envField.string({ context: 'server', access: 'secret', default: 'desk@polyindex.test' }),
      // Price delivery (docs/delivery.md). WhatsApp: token + phone number id → the Cloud API;
      // otherwise the sandbox (DATA_DIR/whatsapp-outbox, loopback only). JOBS_SECRET opens
      // POST /api/jobs/daily-update; DELIVERY_LINK_SECRET signs unsubscribe links;
      // DELIVERY_WINDOW_HOURS (1–12, 3 when unset): how late after its hour a daily update may go.
      WHATSAPP_TOKEN: envField.string({ context: 'server', access: 'secret', optional: true }),
      WHATSAPP_PHONE_NUMBER_ID: envField.string({ context: 'server', access: 'secret', optional: true }),
      WHATSAPP_APP_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      WHATSAPP_VERIFY_TOKEN: envField.string({ context: 'server', access: 'secret', optional: true }),
      WHATSAPP_GRAPH_URL: envField.string({ context: 'server', access: 'secret', default: 'https://graph.facebook.com/v21.0' }),
      JOBS_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      // `off`: no in-server scheduler (an external one calls the job endpoint; extra instances).
      JOBS_SCHEDULER: envField.enum({ context: 'server', access: 'secret', values: ['on', 'off'], default: 'on' }),
      DELIVERY_LINK_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      DELIVERY_WINDOW_HOURS: envField.number({ context: 'server', access: 'secret', optional: true, int: true, gt: 0, lt: 13 }),
    },
  },
});
