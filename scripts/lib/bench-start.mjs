// The production site for a Lighthouse bench, started as `npm start` starts it
// (scripts/start.mjs: built site, Auth emulator, demo data) on loopback, with its own DATA_DIR.
// Used by `npm run bench:post` and `npm run bench:methodology`.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const HOST = '127.0.0.1';

/**
 * @param {{ port: number, emulatorHost: string, dataDir: string, fresh?: boolean, timeoutMs?: number }} options
 *   fresh: start from an empty DATA_DIR (seeded anew)
 * @returns {Promise<{ base: string, stop: () => Promise<void> }>}
 */
export async function startBenchSite({ port, emulatorHost, dataDir, fresh = false, timeoutMs = 900_000 }) {
  const dir = resolve(dataDir);
  if (fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, HOST, DATA_DIR: dir, ASTRO_TELEMETRY_DISABLED: '1', PORT: String(port), FIREBASE_AUTH_EMULATOR_HOST: emulatorHost };
  const server = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  server.stdout.on('data', (chunk) => (log += String(chunk)));
  server.stderr.on('data', (chunk) => (log += String(chunk)));
  const base = `http://${HOST}:${port}`;
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((ok) => server.once('exit', ok));
    server.kill('SIGTERM');
    await exited;
  };
  // start.mjs builds first when the sources changed since the last build (slow on a busy machine).
  const deadline = Date.now() + timeoutMs;
  while (!(await fetch(`${base}/`).then((r) => r.ok, () => false))) {
    if (server.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { base, stop };
}
