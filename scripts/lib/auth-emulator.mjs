// Starts the Firebase Auth emulator (firebase-tools) for the embedded default: demo project,
// offline, loopback, its accounts kept under DATA_DIR between runs, its logs in DATA_DIR/logs;
// and keeps it running for `npm start` (superviseAuthEmulator: restarts with backoff).
// The numbers (start limit, attempts, backoff) are explained in docs/deploy.md, "Running npm start
// under a supervisor".
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bindable, freePortRun } from './ports.mjs';

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
 * How long one start may take before it counts as failed. The emulator took more than 100 s to
 * open its port on a loaded 2-core machine (load 11–14), and missed a 90 s limit twice there;
 * idle it takes 3–10 s. A hang costs this long once per attempt, a failure that ends the
 * process (a port taken) costs nothing: it is noticed at once.
 */
export const EMULATOR_START_LIMIT_MS = 240_000;
/** Starts tried before the launcher gives up (at its first start; a restart keeps trying). */
export const EMULATOR_START_ATTEMPTS = 3;
/** The wait before a restart (and between start attempts): doubled each time, up to the cap. */
export const RESTART_FIRST_DELAY_MS = 1_000;
export const RESTART_MAX_DELAY_MS = 60_000;
/** An emulator that ran this long before it died starts the backoff again from the first delay. */
export const RESTART_CALM_MS = 600_000;

/** The wait before restart number `restart` (1, 2, …) of a series: 1 s, 2 s, 4 s … 60 s. */
export function restartDelayMs(restart) {
  return Math.min(RESTART_MAX_DELAY_MS, RESTART_FIRST_DELAY_MS * 2 ** Math.max(0, Math.min(restart - 1, 30)));
}

/** The last lines a failed start printed, for the one log line that says why. */
const tail = (output, lines = 6) => output.trim().split('\n').slice(-lines).join('\n');

/** A wait that ends early when `signal` aborts. */
function pause(ms, signal) {
  return new Promise((done) => {
    if (signal?.aborted) return done();
    const timer = setTimeout(done, ms);
    timer.unref();
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      done();
    }, { once: true });
  });
}

/**
 * The hub's and logging emulator's ports: the two after the auth port when they are free (so two
 * emulators, dev and tests, can coexist), else two other free ones. A hub port taken by a
 * passing connection made the whole start fail before ("Could not start emulator hub").
 */
async function sidePorts(host, port) {
  if ((await bindable(port + 1, host)) && (await bindable(port + 2, host))) return { hub: port + 1, logging: port + 2 };
  const first = await freePortRun(2, host);
  return { hub: first, logging: first + 1 };
}

/**
 * One start of the emulator process, up to `limitMs`.
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, exited: Promise<{ code: number | null, signal: NodeJS.Signals | null }>, hasExited: () => boolean } | { failed: string }>}
 */
async function startOnce({ host, port, projectId, root, limitMs, signal }) {
  const stateDir = join(root, 'auth-emulator');
  const cacheDir = join(root, '.firebase');
  const logDir = emulatorLogDir(root);
  mkdirSync(stateDir, { recursive: true });
  mkdirSync(cacheDir, { recursive: true });
  mkdirSync(logDir, { recursive: true });
  const configPath = join(root, 'firebase.json');
  const side = await sidePorts(host, port);
  if (side.hub !== port + 1) console.log(`[polyindex] the Auth emulator's hub port ${port + 1} is taken: its hub uses ${side.hub}, its logging ${side.logging}`);
  // Also read by `npm run backup` (src/server/ops/authEmulatorExport.ts) to find the hub.
  writeFileSync(
    configPath,
    JSON.stringify({
      emulators: {
        auth: { host, port },
        hub: { host, port: side.hub },
        logging: { host, port: side.logging },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const args = ['emulators:start', '--only', 'auth', '--project', projectId, '--config', configPath, '--export-on-exit', stateDir];
  if (existsSync(join(stateDir, 'firebase-export-metadata.json'))) args.push('--import', stateDir);
  // The export on exit finds "its" hub through a file named after the project in the temporary
  // directory: with a shared one, any other emulator of demo-polyindex on the machine (tests,
  // another checkout) can be the one found, and its accounts were written here. One of its own.
  const tmpDir = join(cacheDir, 'tmp');
  mkdirSync(tmpDir, { recursive: true });
  const child = spawn(process.execPath, [FIREBASE_CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // firebase-tools writes firebase-debug.log (FIREBASE_DEBUG_PATH) and emulators their
    // `*-debug.log` into the working directory: both under DATA_DIR, never the checkout.
    cwd: logDir,
    // CI=true keeps firebase-tools from prompting or phoning home; caches stay in DATA_DIR.
    env: { ...process.env, CI: 'true', XDG_CONFIG_HOME: cacheDir, TMPDIR: tmpDir, FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true', FIREBASE_DEBUG_PATH: `${logDir}/` },
  });
  let output = '';
  // Its port opens before the accounts are imported: it is up once it says all is ready.
  let ready = false;
  child.stdout.on('data', (d) => {
    output += d;
    ready ||= /All emulators ready/.test(output);
    // The emulator "sends" SMS codes to its log: show them where the person running the site looks.
    for (const line of String(d).split('\n')) if (/verification code|use the code/i.test(line)) console.log(`[auth emulator] ${line.trim()}`);
  });
  child.stderr.on('data', (d) => (output += d));
  let exited = false;
  const exitedPromise = new Promise((done) => {
    child.once('exit', (code, signalName) => {
      exited = true;
      done({ code, signal: signalName });
    });
  });
  const onAbort = () => child.kill('SIGKILL');
  signal?.addEventListener('abort', onAbort, { once: true });
  const deadline = Date.now() + limitMs;
  const up = await waitForPort(host, port, limitMs, () => !exited && !signal?.aborted).then(async (open) => {
    while (open && !ready && !exited && !signal?.aborted && Date.now() < deadline) await pause(250);
    return open && ready;
  });
  signal?.removeEventListener('abort', onAbort);
  // Its output is kept only while it starts: a long-running emulator must not grow a string.
  child.stdout.removeAllListeners('data');
  child.stderr.removeAllListeners('data');
  child.stdout.on('data', (d) => {
    for (const line of String(d).split('\n')) if (/verification code|use the code/i.test(line)) console.log(`[auth emulator] ${line.trim()}`);
  });
  child.stderr.resume();
  if (up && !exited) return { child, exited: exitedPromise, hasExited: () => exited };
  if (!exited) {
    child.kill('SIGKILL');
    await exitedPromise;
  }
  if (signal?.aborted) return { failed: 'stopped while it started' };
  return { failed: exited && !up ? `it ended while starting:\n${tail(output)}` : `it was not ready on port ${port} within ${Math.round(limitMs / 1000)} s:\n${tail(output)}` };
}

/**
 * Starts the emulator (or reuses one already answering on `emulatorHost`), trying up to
 * `attempts` times (waits of 1 s, 2 s … between them) with `startLimitMs` for each.
 * @param {{ emulatorHost: string, projectId: string, dataDir: string, startLimitMs?: number, attempts?: number, signal?: AbortSignal }} options
 * @returns {Promise<{ stop: (timeoutMs?: number) => Promise<void>, reused: boolean, exited: Promise<{ code: number | null, signal: NodeJS.Signals | null }> }>}
 *   `exited` settles when the emulator process ends (never for a reused one).
 */
export async function startAuthEmulator({ emulatorHost, projectId, dataDir, startLimitMs = EMULATOR_START_LIMIT_MS, attempts = EMULATOR_START_ATTEMPTS, signal }) {
  const [host, portText] = emulatorHost.split(':');
  const port = Number(portText);
  // Absolute paths: the emulator runs in its log directory.
  const root = resolve(dataDir);
  let failure = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (signal?.aborted) throw new Error('the Auth emulator start was stopped');
    if (await portIsOpen(host, port)) {
      console.log(`[polyindex] using the Auth emulator already running at ${emulatorHost}`);
      return { stop: async () => {}, reused: true, exited: new Promise(() => {}) };
    }
    console.log(`[polyindex] starting the Firebase Auth emulator on ${emulatorHost}${attempt > 1 ? ` (attempt ${attempt} of ${attempts})` : ''}…`);
    const started = await startOnce({ host, port, projectId, root, limitMs: startLimitMs, signal });
    if ('child' in started) return running(started);
    failure = started.failed;
    if (signal?.aborted) break;
    if (attempt < attempts) {
      const wait = restartDelayMs(attempt);
      console.error(`[polyindex] the Auth emulator did not start (${failure.split('\n')[0]}): trying again in ${wait / 1000} s`);
      await pause(wait, signal);
    }
  }
  throw new Error(`the Auth emulator did not start (${attempts} attempts): ${failure}`);
}

function running({ child, exited: exitedPromise, hasExited }) {
  return {
    reused: false,
    exited: exitedPromise,
    /** SIGINT lets the emulator export its accounts; after `timeoutMs` it is killed. */
    stop: async (timeoutMs = 15_000) => {
      if (hasExited()) return;
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

/**
 * Keeps the emulator running for as long as the site runs. `first` is the emulator as started;
 * one that ends on its own is started again after restartDelayMs(n) (n counts the restarts since
 * it last ran RESTART_CALM_MS), each start as startAuthEmulator tries it, until one succeeds;
 * `afterRestart` runs after every restart (the demo accounts, an export), its failure logged.
 * Nothing is restarted once `isStopping()` (a Ctrl-C in a terminal reaches the emulator too).
 * Each event is one log line.
 *
 * @param {{
 *   first: Awaited<ReturnType<typeof startAuthEmulator>>,
 *   start: (signal: AbortSignal) => ReturnType<typeof startAuthEmulator>,
 *   afterRestart?: () => Promise<void>,
 *   isStopping?: () => boolean,
 *   now?: () => number,
 * }} options
 * @returns {{ stop: (timeoutMs?: number) => Promise<void> }}
 */
export function superviseAuthEmulator({ first, start, afterRestart = async () => {}, isStopping = () => false, now = Date.now }) {
  const stopping = new AbortController();
  const stopped = new Promise((done) => stopping.signal.addEventListener('abort', () => done(null), { once: true }));
  let current = first;
  let upSince = now();
  let restarts = 0;
  const message = (error) => String(error instanceof Error ? error.message : error).split('\n')[0];
  /** The watch loop's end, awaited by stop(). */
  const watching = (async () => {
    while (!current.reused) {
      const exit = await Promise.race([current.exited, stopped]);
      if (!exit || stopping.signal.aborted || isStopping()) return;
      const ranMs = now() - upSince;
      restarts = ranMs >= RESTART_CALM_MS ? 1 : restarts + 1;
      const down = now();
      let wait = restartDelayMs(restarts);
      const how = exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
      console.error(`[polyindex] the Auth emulator stopped unexpectedly (${how}) after ${Math.round(ranMs / 1000)} s: restarting it in ${wait / 1000} s (restart ${restarts}); public pages keep serving, sign-in answers 503 until it is back`);
      for (;;) {
        await pause(wait, stopping.signal);
        if (stopping.signal.aborted || isStopping()) return;
        try {
          current = await start(stopping.signal);
          break;
        } catch (error) {
          if (stopping.signal.aborted) return;
          restarts += 1;
          wait = restartDelayMs(restarts);
          console.error(`[polyindex] the Auth emulator restart failed (${message(error)}): trying again in ${wait / 1000} s (restart ${restarts})`);
        }
      }
      await afterRestart().catch((error) => console.error(`[polyindex] after the Auth emulator restart: ${message(error)}`));
      upSince = now();
      console.log(`[polyindex] the Auth emulator is back after ${Math.round((upSince - down) / 1000)} s (restart ${restarts}): sign-in works again`);
    }
  })();
  return {
    /** Stops the running emulator (it exports its accounts) and any restart in progress. */
    stop: async (timeoutMs = 15_000) => {
      stopping.abort();
      await watching;
      await current.stop(timeoutMs);
    },
  };
}
