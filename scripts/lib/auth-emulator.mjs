// Starts the Firebase Auth emulator (firebase-tools) for the embedded default: demo project,
// offline, loopback, its accounts kept under DATA_DIR between runs, its logs in DATA_DIR/logs.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The project's firebase-tools on this Node, whatever PATH the caller has (a shebang would
// pick the system Node; the emulator runs in another directory).
const FIREBASE_CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', 'firebase-tools', 'lib', 'bin', 'firebase.js');

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

/** Where the emulator's own log files go (firebase-debug.log and any `*-debug.log`). */
export const emulatorLogDir = (dataDir) => join(resolve(dataDir), 'logs');

/**
 * @param {{ emulatorHost: string, projectId: string, dataDir: string }} options
 * @returns {Promise<{ stop: (timeoutMs?: number) => Promise<void>, reused: boolean, exited: Promise<{ code: number | null, signal: NodeJS.Signals | null }> }>}
 *   `exited` settles when the emulator process ends (never for a reused one).
 */
export async function startAuthEmulator({ emulatorHost, projectId, dataDir }) {
  const [host, portText] = emulatorHost.split(':');
  const port = Number(portText);
  if (await portIsOpen(host, port)) {
    console.log(`[polyindex] using the Auth emulator already running at ${emulatorHost}`);
    return { stop: async () => {}, reused: true, exited: new Promise(() => {}) };
  }
  // Absolute paths: the emulator runs in its log directory (see below).
  const root = resolve(dataDir);
  const stateDir = join(root, 'auth-emulator');
  const cacheDir = join(root, '.firebase');
  const logDir = emulatorLogDir(root);
  mkdirSync(stateDir, { recursive: true });
  mkdirSync(cacheDir, { recursive: true });
  mkdirSync(logDir, { recursive: true });
  const configPath = join(root, 'firebase.json');
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
  const child = spawn(process.execPath, [FIREBASE_CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // firebase-tools writes firebase-debug.log (FIREBASE_DEBUG_PATH) and emulators their
    // `*-debug.log` into the working directory: both under DATA_DIR, never the checkout.
    cwd: logDir,
    // CI=true keeps firebase-tools from prompting or phoning home; caches stay in DATA_DIR.
    env: { ...process.env, CI: 'true', XDG_CONFIG_HOME: cacheDir, FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true', FIREBASE_DEBUG_PATH: `${logDir}/` },
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
    // The emulator "sends" SMS codes to its log: show them where the person running the site looks.
    for (const line of String(d).split('\n')) if (/verification code|use the code/i.test(line)) console.log(`[auth emulator] ${line.trim()}`);
  });
  child.stderr.on('data', (d) => (output += d));
  let exited = false;
  const exitedPromise = new Promise((done) => {
    child.once('exit', (code, signal) => {
      exited = true;
      done({ code, signal });
    });
  });
  const up = await waitForPort(host, port, 90_000, () => !exited);
  if (!up) {
    child.kill('SIGKILL');
    throw new Error(`the Auth emulator did not start:\n${output}`);
  }
  return {
    reused: false,
    exited: exitedPromise,
    /** SIGINT lets the emulator export its accounts; after `timeoutMs` it is killed. */
    stop: async (timeoutMs = 15_000) => {
      if (exited) return;
      const timer = setTimeout(() => {
        console.error(`[polyindex] the Auth emulator did not stop within ${timeoutMs} ms: killed (accounts since the last export are lost)`);
        child.kill('SIGKILL');
      }, timeoutMs);
      child.kill('SIGINT');
      await exitedPromise;
      clearTimeout(timer);
    },
  };
}
