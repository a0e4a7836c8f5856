// Starts the Firebase Auth emulator (firebase-tools) for the embedded default: demo project,
// offline, loopback, its accounts kept under DATA_DIR between runs.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';

export function portIsOpen(host, port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function waitForPort(host, port, timeoutMs, isAlive = () => true) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await portIsOpen(host, port)) return true;
    if (!isAlive()) return false;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/**
 * @param {{ emulatorHost: string, projectId: string, dataDir: string }} options
 * @returns {Promise<{ stop: () => Promise<void>, reused: boolean }>}
 */
export async function startAuthEmulator({ emulatorHost, projectId, dataDir }) {
  const [host, portText] = emulatorHost.split(':');
  const port = Number(portText);
  if (await portIsOpen(host, port)) {
    console.log(`[polyindex] using the Auth emulator already running at ${emulatorHost}`);
    return { stop: async () => {}, reused: true };
  }
  const stateDir = join(dataDir, 'auth-emulator');
  const cacheDir = join(dataDir, '.firebase');
  mkdirSync(stateDir, { recursive: true });
  mkdirSync(cacheDir, { recursive: true });
  const configPath = join(dataDir, 'firebase.json');
  // Hub and logging ports next to the auth port, so two emulators (dev and tests) can coexist.
  writeFileSync(
    configPath,
    JSON.stringify({
      emulators: {
        auth: { host, port },
        hub: { host, port: port + 1 },
        logging: { host, port: port + 2 },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const args = ['emulators:start', '--only', 'auth', '--project', projectId, '--config', configPath, '--export-on-exit', stateDir];
  if (existsSync(join(stateDir, 'firebase-export-metadata.json'))) args.push('--import', stateDir);
  console.log(`[polyindex] starting the Firebase Auth emulator on ${emulatorHost}…`);
  const child = spawn('firebase', args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    // CI=true keeps firebase-tools from prompting or phoning home; caches stay in DATA_DIR.
    env: { ...process.env, CI: 'true', XDG_CONFIG_HOME: cacheDir, FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
    // The emulator "sends" SMS codes to its log: show them where the person running the site looks.
    for (const line of String(d).split('\n')) if (/verification code|use the code/i.test(line)) console.log(`[auth emulator] ${line.trim()}`);
  });
  child.stderr.on('data', (d) => (output += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  const up = await waitForPort(host, port, 90_000, () => !exited);
  if (!up) {
    child.kill('SIGKILL');
    throw new Error(`the Auth emulator did not start:\n${output}`);
  }
  return {
    reused: false,
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        // SIGINT lets the emulator export its accounts before it exits.
        child.kill('SIGINT');
      }),
  };
}
