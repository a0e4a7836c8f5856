// Google's Firestore emulator (the Debian package `google-cloud-cli-firestore-emulator`, Java 17+)
// on a loopback port, for the test suite and for `npm start` with DATA_BACKEND=firestore and no
// Firebase project; the in-memory stand-in (`./firestore-fake.mjs`) only where it is missing.
// Found, started, emptied and stopped here and nowhere else (docs/architecture.md, "Tests").
import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './ports.mjs';

export const FIRESTORE_EMULATOR_PACKAGE = 'google-cloud-cli-firestore-emulator';
const SCRIPT = 'cloud_firestore_emulator';
/** Where the script sits below a Cloud SDK root. */
const IN_SDK = join('platform', 'cloud-firestore-emulator', SCRIPT);
/** Cloud SDK roots of the Debian package, Google's tarball and snap, before asking gcloud. */
const KNOWN_SDK_ROOTS = ['/usr/lib/google-cloud-sdk', '/usr/share/google-cloud-sdk', '/opt/google-cloud-sdk', '/usr/local/google-cloud-sdk', '/snap/google-cloud-cli/current', join(homedir(), 'google-cloud-sdk')];

const executable = (file) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The first executable `name` on PATH, or null. */
function onPath(name, path = process.env.PATH ?? '') {
  for (const dir of path.split(delimiter)) if (dir && executable(join(dir, name))) return join(dir, name);
  return null;
}

/** Runs a short look-up command; its stdout, or '' when it is missing or fails. */
function quietly(command, args) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 15_000 });
  } catch {
    return '';
  }
}

/**
 * Where Google's Firestore emulator is on this machine, or why it cannot run here.
 * `FIRESTORE_EMULATOR_SCRIPT` names the `cloud_firestore_emulator` script to use, or `none` to
 * use the stand-in; otherwise: the Debian package's files (`dpkg -L`), the usual Cloud SDK
 * roots, then `gcloud info`. The script runs `java` (or `$JAVA`), which must be present too.
 * @returns {{ script: string, found: string } | { script: null, reason: string }}
 */
export function findFirestoreEmulator(env = process.env) {
  const chosen = env.FIRESTORE_EMULATOR_SCRIPT?.trim();
  if (chosen === 'none') return { script: null, reason: 'FIRESTORE_EMULATOR_SCRIPT=none' };
  let script = null;
  let found = '';
  if (chosen) {
    if (!executable(chosen)) return { script: null, reason: `FIRESTORE_EMULATOR_SCRIPT=${chosen} is not an executable file` };
    [script, found] = [chosen, 'FIRESTORE_EMULATOR_SCRIPT'];
  }
  if (!script) {
    const listed = quietly('dpkg', ['-L', FIRESTORE_EMULATOR_PACKAGE]).split('\n').find((line) => line.endsWith(`/${SCRIPT}`) && executable(line));
    if (listed) [script, found] = [listed, `the Debian package ${FIRESTORE_EMULATOR_PACKAGE}`];
  }
  if (!script) {
    const known = KNOWN_SDK_ROOTS.map((root) => join(root, IN_SDK)).find(executable);
    if (known) [script, found] = [known, 'a Cloud SDK in a usual place'];
  }
  if (!script && onPath('gcloud', env.PATH)) {
    const root = quietly('gcloud', ['info', '--format=value(installation.sdk_root)']).trim();
    if (root && executable(join(root, IN_SDK))) [script, found] = [join(root, IN_SDK), 'gcloud info'];
  }
  if (!script) return { script: null, reason: `the package ${FIRESTORE_EMULATOR_PACKAGE} is not installed` };
  const java = env.JAVA?.trim() || 'java';
  if (!(java.includes('/') ? executable(java) : onPath(java, env.PATH))) return { script: null, reason: `${script} needs Java (17 or later), and ${java} is not there` };
  return { script, found };
}

/** Every process below `pid` (Linux /proc), deepest last. */
function descendantsOf(pid) {
  const parentOf = new Map();
  let entries;
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const entry of entries) {
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  const found = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next = [...parentOf].filter(([, ppid]) => frontier.includes(ppid)).map(([child]) => child);
    found.push(...next);
    frontier = next;
  }
  return found;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const signalAll = (pids, signal) => {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
};

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Whether Google's emulator answers at `host` (its REST root says "Ok"; the stand-in speaks gRPC only). */
export async function isFirestoreEmulator(host, timeoutMs = 2_000) {
  try {
    const response = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(timeoutMs) });
    return response.ok && (await response.text()).trim() === 'Ok';
  } catch {
    return false;
  }
}

/**
 * Deletes every document of `projectId` on Google's emulator at `host` (its REST reset; the
 * other projects stay). Throws when that emulator does not answer.
 */
export async function emptyFirestoreProject(host, projectId, databaseId = '(default)') {
  const response = await fetch(`http://${host}/emulator/v1/projects/${encodeURIComponent(projectId)}/databases/${encodeURIComponent(databaseId)}/documents`, { method: 'DELETE', signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`emptying ${projectId} on the Firestore emulator at ${host}: HTTP ${response.status} ${await response.text()}`);
}

/**
 * Starts Google's Firestore emulator on `host` (loopback) and `port` (0: a free one), and waits
 * until it answers. The script runs Java as its child, in our process group (so a supervisor
 * that kills our group takes it along); `stop()` ends both, and so does this process's exit.
 * @param {{ script: string, host?: string, port?: number, timeoutMs?: number }} options
 */
export async function startFirestoreEmulator({ script, host = '127.0.0.1', port = 0, timeoutMs = 120_000 }) {
  const deadline = Date.now() + timeoutMs;
  let lastError = null;
  // A free port can be taken between the look-up and Java's bind: then try another (a given port: once).
  for (let attempt = 0; attempt < (port === 0 ? 3 : 1); attempt++) {
    const chosen = port || (await freePort(host));
    try {
      return await launch(script, host, chosen, deadline);
    } catch (error) {
      lastError = error;
      if (Date.now() >= deadline) break;
    }
  }
  throw lastError;
}

/**
 * Java options for the emulator: the quick compiler only, and one garbage-collector thread.
 * A fresh JVM beside busy test workers otherwise spends most of a short run waiting for its
 * optimising compiler: the same writes took 60–94 s with Java's defaults and 25–36 s with these
 * on a loaded 2-core machine (docs/decisions.md, "The test suite"). Options already in
 * JAVA_TOOL_OPTIONS come after these, so they win.
 */
const EMULATOR_JAVA_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

async function launch(script, host, port, deadline) {
  const address = `${host}:${port}`;
  const javaOptions = [EMULATOR_JAVA_OPTIONS, process.env.JAVA_TOOL_OPTIONS].filter(Boolean).join(' ');
  const child = spawn(script, ['start', `--host=${host}`, `--port=${port}`], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, JAVA_TOOL_OPTIONS: javaOptions } });
  let output = '';
  const keep = (data) => {
    output = (output + data).slice(-16_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exit = null;
  const exited = new Promise((done) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      done(exit);
    });
    child.once('error', (error) => {
      exit = { code: 127, signal: null, error };
      done(exit);
    });
  });
  /** Java and anything else the script started, then the script itself. */
  const processes = () => [...descendantsOf(child.pid).reverse(), child.pid];
  // Our own exit (normal, or after an uncaught error) takes the emulator along.
  const onExit = () => signalAll(processes(), 'SIGKILL');
  process.once('exit', onExit);

  const stop = async (timeoutMs = 10_000) => {
    process.removeListener('exit', onExit);
    const pids = processes().filter(alive);
    signalAll(pids, 'SIGTERM');
    const until = Date.now() + timeoutMs;
    while (pids.some(alive) && Date.now() < until) await sleep(100);
    if (pids.some(alive)) signalAll(pids, 'SIGKILL');
    while (pids.some(alive)) await sleep(50);
  };

  while (Date.now() < deadline) {
    if (exit) break;
    if (await isFirestoreEmulator(address, 1_000)) {
      return {
        host: address,
        kind: /** @type {const} */ ('emulator'),
        /** Deletes every document of one project (the others stay). */
        empty: (projectId) => emptyFirestoreProject(address, projectId),
        stop,
        exited,
      };
    }
    await sleep(250);
  }
  await stop(2_000);
  throw new Error(`the Firestore emulator (${script}) did not answer on ${address}${exit ? ` (it exited: ${exit.error?.message ?? `code ${exit.code}, signal ${exit.signal}`})` : ' in time'}:\n${output}`);
}

/**
 * The Firestore a local run uses when it is given none: Google's emulator where it is found
 * (and starts), otherwise the in-memory stand-in. `label` says which and why, for the run's
 * report and the site's log.
 * @param {{ env?: NodeJS.ProcessEnv, port?: number }} [options]
 */
export async function startLocalFirestore({ env = process.env, port = 0 } = {}) {
  const found = findFirestoreEmulator(env);
  let reason = found.script ? '' : found.reason;
  if (found.script) {
    try {
      const emulator = await startFirestoreEmulator({ script: found.script, port });
      return { ...emulator, label: `Google's Firestore emulator on ${emulator.host} (${found.script}, found through ${found.found})` };
    } catch (error) {
      // Installed but broken (Java, a port): the stand-in still lets the run or the site go on, and the label says why.
      reason = `Google's emulator at ${found.script} did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
      console.error(`[firestore] ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const { startFirestoreFake } = await import('./firestore-fake.mjs');
  const fake = await startFirestoreFake({ port });
  return {
    host: fake.host,
    kind: 'stand-in',
    label: `the in-memory Firestore stand-in on ${fake.host} (${reason})`,
    // The stand-in runs in this process only: emptying it forgets every project.
    empty: async () => fake.clear(),
    stop: fake.stop,
    // In this process: it ends with it.
    exited: new Promise(() => undefined),
  };
}
