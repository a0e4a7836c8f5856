// @ts-check
import { defineConfig, envField } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import { isPublicPath } from './src/lib/access/publicPaths.ts';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 4321);

export default defineConfig({
  site: process.env.SITE_URL ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  integrations: [
    react(),
    // The sitemap lists public pages only: a gated URL in it would only send crawlers to /register.
    sitemap({ filter: (page) => isPublicPath(new URL(page).pathname) }),
  ],
  server: { host, port },
  env: {
    schema: {
      // secret = read from the environment at run time (public server values are inlined at build time).
      DATA_DIR: envField.string({ context: 'server', access: 'secret', default: './data' }),
      CONTACT_PHONE: envField.string({ context: 'server', access: 'public', default: '+91 22 4000 7000' }),
      CONTACT_GSTIN: envField.string({ context: 'server', access: 'public', default: '27AABCP1234F1Z5' }),
      CONTACT_EMAIL: envField.string({ context: 'server', access: 'public', default: 'desk@polyindex.test' }),
    },
  },
});
