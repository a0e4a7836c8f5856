// The production site for a Lighthouse bench, started as `npm start` starts it
// (scripts/start.mjs: built site, Auth emulator, demo data) on loopback, with its own DATA_DIR.
// Used by `npm run bench:post`, `bench:methodology`, `bench:pricing` and `bench:compare`.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { sessionCookieOf } from './session-cookie.mjs';

const HOST = '127.0.0.1';

/**
 * @param {{ port: number, emulatorHost: string, dataDir: string, fresh?: boolean, timeoutMs?: number, env?: Record<string, string> }} options
 *   fresh: start from an empty DATA_DIR (seeded anew); env: more settings for the site
 * @returns {Promise<{ base: string, stop: () => Promise<void> }>}
 */
export async function startBenchSite({ port, emulatorHost, dataDir, fresh = false, timeoutMs = 900_000, env: more = {} }) {
  const dir = resolve(dataDir);
  if (fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, HOST, DATA_DIR: dir, ASTRO_TELEMETRY_DISABLED: '1', PORT: String(port), FIREBASE_AUTH_EMULATOR_HOST: emulatorHost, ...more };
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

/**
 * A demo account's session cookie on a bench site, signed in as a person would (the emulator's
 * password sign-in, then the site's session endpoint).
 * @param {string} base the site's origin
 * @param {string} emulatorHost the Auth emulator's host:port
 * @param {string} email a demo account
 * @returns {Promise<string>} "name=value"
 */
export async function benchSignIn(base, emulatorHost, email) {
  const { DEMO_PASSWORD } = await import('../../src/server/demoAccounts.ts');
  const signedIn = await fetch(`http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD, returnSecureToken: true }),
  });
  if (!signedIn.ok) throw new Error(`emulator sign-in of ${email} failed: ${signedIn.status} ${await signedIn.text()}`);
  const { idToken } = /** @type {{ idToken: string }} */ (await signedIn.json());
  const session = await fetch(`${base}/api/auth/session`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: base }, body: JSON.stringify({ idToken }) });
  const cookie = sessionCookieOf(session.headers.getSetCookie());
  if (!session.ok || !cookie) throw new Error(`session of ${email} failed: ${session.status} ${await session.text()}`);
  return cookie;
}
