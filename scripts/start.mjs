#!/usr/bin/env node
// `npm start`: build when the sources changed, then serve the production build of the
// embedded default (SQLite under DATA_DIR, demo data) on HOST:PORT and print the URL.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildIsCurrent, writeBuildStamp } from './lib/build-stamp.mjs';
import { assertSafePaymentMode } from './lib/payment-mode.mjs';

const env = {
  ...process.env,
  HOST: process.env.HOST ?? '127.0.0.1',
  PORT: process.env.PORT ?? '4321',
  DATA_DIR: resolve(process.env.DATA_DIR ?? './data'),
  ASTRO_TELEMETRY_DISABLED: '1',
};

try {
  console.log(`[polyindex] payments: ${assertSafePaymentMode(env)}`);
} catch (error) {
  console.error(`[polyindex] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

mkdirSync(env.DATA_DIR, { recursive: true });

if (!buildIsCurrent()) {
  console.log('[polyindex] building the site…');
  const build = spawnSync('astro', ['build'], { stdio: 'inherit', env, shell: false });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeBuildStamp();
}

const server = spawn(process.execPath, ['dist/server/entry.mjs'], { stdio: ['ignore', 'pipe', 'inherit'], env });
let announced = false;
server.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  if (!announced && /listening|server/i.test(String(chunk))) {
    announced = true;
    const shownHost = env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST;
    console.log(`\n  PolyIndex is running at http://${shownHost}:${env.PORT}/  (data in ${env.DATA_DIR})\n`);
  }
});

const stop = (signal) => {
  server.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
