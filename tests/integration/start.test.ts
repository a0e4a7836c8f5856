/**
 * `npm start` (scripts/start.mjs) run for real as a child process: it refuses unsafe modes,
 * never hides a dead server (issue 15, finding 2), restarts a dead Auth emulator while the site
 * keeps serving, stops cleanly on SIGTERM, and keeps the emulator's logs under DATA_DIR (finding 8). Every port is a free one picked for this run, so
 * two runs (and a dev `npm start`) never meet.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { portIsOpen, startAuthEmulator } from '../../scripts/lib/auth-emulator.mjs';
import { findFirestoreEmulator } from '../../scripts/lib/firestore-emulator.mjs';
import { freePort, freePortRun } from '../../scripts/lib/ports.mjs';
import { DEMO_PASSWORD } from '../../src/server/demoAccounts.ts';
import { exportAuthEmulator, hubOf } from '../../src/server/ops/authEmulatorExport.ts';
import { TEST_DATA_DIR } from './env.ts';

/** The data directory of the starts that must be refused before they touch it. */
const REFUSED_DATA_DIR = join(TEST_DATA_DIR, 'refused');

const start = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['scripts/start.mjs'], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });

describe('start-up safety', () => {
  it('refuses a non-loopback HOST in emulator and sandbox mode, before building anything', () => {
    const result = start({ HOST: '0.0.0.0', PORT: '4999', DATA_DIR: REFUSED_DATA_DIR, FIREBASE_SERVICE_ACCOUNT: '' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('refusing to serve 0.0.0.0');
    expect(result.stderr).toContain('Firebase Auth emulator');
    expect(result.stdout).not.toContain('building');
  });

  it('refuses FIREBASE_AUTH_EMULATOR_HOST beside a service account, on loopback too, before building anything', () => {
    const result = start({
      HOST: '127.0.0.1',
      PORT: '4999',
      DATA_DIR: REFUSED_DATA_DIR,
      FIREBASE_SERVICE_ACCOUNT: '{"type":"service_account","project_id":"demo-leftover"}',
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('refusing to serve 127.0.0.1');
    expect(result.stderr).toContain('FIREBASE_AUTH_EMULATOR_HOST is set beside FIREBASE_SERVICE_ACCOUNT');
    expect(result.stdout).not.toContain('building');
  });

  it('refuses a non-loopback HOST without DELIVERY_LINK_SECRET, every real service configured', () => {
    const real = { FIREBASE_SERVICE_ACCOUNT: '{"project_id":"p"}', FIREBASE_AUTH_EMULATOR_HOST: '', RAZORPAY_KEY_ID: 'rzp_live_x', RAZORPAY_KEY_SECRET: 'y', WHATSAPP_TOKEN: 'EAAG', WHATSAPP_PHONE_NUMBER_ID: '123' };
    const result = start({ HOST: '0.0.0.0', PORT: '4999', DATA_DIR: REFUSED_DATA_DIR, DELIVERY_LINK_SECRET: '', ...real });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('refusing to serve 0.0.0.0');
    expect(result.stderr).toContain('DELIVERY_LINK_SECRET');
    expect(result.stderr).not.toContain('emulator');
    expect(result.stdout).not.toContain('building');
  });
});

const PORT = await freePort();
/** The launcher's Auth emulator (its hub and logging ports are the next two). */
const EMULATOR = { host: '127.0.0.1', port: await freePortRun(3) };
/** The launcher's own Firestore with DATA_BACKEND=firestore (Google's emulator, else the stand-in). */
const FIRESTORE_PORT = await freePort();
/** The start tests' own emulator (its hub and logging ports follow). */
const START_TEST_EMULATOR = { host: '127.0.0.1', port: await freePortRun(3) };
/** The log test's own emulator (its hub and logging ports follow). */
const LOG_TEST_EMULATOR = `127.0.0.1:${await freePortRun(3)}`;

interface Launcher {
  readonly child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: ChildProcess[] = [];
afterEach(async () => {
  // A failed assertion must not leave a launcher (and its ports) behind for the next test: ask
  // it to stop (it stops its children), and kill it only if it does not.
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
});

/** Starts the real launcher and resolves once it says the site is up (a build may come first). */
async function launch(dataDir: string, extraEnv: Record<string, string> = {}): Promise<Launcher> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(PORT),
      DATA_DIR: dataDir,
      FIREBASE_AUTH_EMULATOR_HOST: `${EMULATOR.host}:${EMULATOR.port}`,
      FIREBASE_SERVICE_ACCOUNT: '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  // Poll the launcher's own words, not a fixed sleep: a loaded machine may build for minutes.
  await expect.poll(() => (child.exitCode === null ? output : `exited early:\n${output}`), { timeout: 540_000, interval: 250 }).toContain('PolyIndex is running');
  return { child, output: () => output, exited };
}

const serverPid = (output: string): number => {
  const match = /server pid (\d+)/.exec(output);
  if (!match) throw new Error(`the launcher did not name its server:\n${output}`);
  return Number(match[1]);
};

/** An ID token from the emulator for a demo account (the browser's half of a sign-in). */
async function emulatorToken(emulatorHost: string, email: string): Promise<string> {
  const response = await fetch(`http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD, returnSecureToken: true }),
  });
  if (!response.ok) throw new Error(`emulator sign-in of ${email}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { idToken: string }).idToken;
}

/** The site's half of a sign-in: the token exchanged for a session cookie. */
const signIn = (base: string, idToken: string) =>
  fetch(`${base}/api/auth/session`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: base }, body: JSON.stringify({ idToken }) });

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('process life', () => {
  it(
    'a server killed by a signal ends the launcher with a non-zero status, logged, and takes the emulators down',
    { timeout: 600_000 },
    async () => {
      const dataDir = join(TEST_DATA_DIR, 'start-crash');
      rmSync(dataDir, { recursive: true, force: true });
      // Neither a project nor an emulator given (a FIRESTORE_EMULATOR_HOST around would be used instead).
      const launcher = await launch(dataDir, { DATA_BACKEND: 'firestore', FIRESTORE_EMULATOR_HOST: '', FIRESTORE_LOCAL_PORT: String(FIRESTORE_PORT) });
      expect(await portIsOpen(EMULATOR.host, EMULATOR.port)).toBe(true);
      expect(await portIsOpen('127.0.0.1', FIRESTORE_PORT)).toBe(true);
      // Google's emulator where the package is installed (these machines), the stand-in elsewhere.
      const packaged = findFirestoreEmulator().script;
      expect(launcher.output()).toContain(packaged ? `store: Google's Firestore emulator on 127.0.0.1:${FIRESTORE_PORT} (${packaged}` : `store: the in-memory Firestore stand-in on 127.0.0.1:${FIRESTORE_PORT}`);
      const java = () => spawnSync('pgrep', ['-f', `cloud-firestore-emulator\\.jar.*--port=${FIRESTORE_PORT}`], { encoding: 'utf8' }).stdout.trim();
      if (packaged) expect(java()).not.toBe('');

      process.kill(serverPid(launcher.output()), 'SIGKILL');
      const exit = await launcher.exited;
      expect(exit).toEqual({ code: 128 + 9, signal: null });
      expect(launcher.output()).toContain('the server stopped unexpectedly (killed by SIGKILL)');
      expect(await portIsOpen('127.0.0.1', PORT)).toBe(false);
      expect(await portIsOpen(EMULATOR.host, EMULATOR.port)).toBe(false);
      expect(await portIsOpen('127.0.0.1', FIRESTORE_PORT)).toBe(false);
      expect(java(), "the emulator's Java process").toBe('');
    },
  );

  it('a port already taken by another process is refused before anything starts, with a non-zero status', { timeout: 120_000 }, async () => {
    const dataDir = join(TEST_DATA_DIR, 'start-port-taken');
    rmSync(dataDir, { recursive: true, force: true });
    // Anything answering on the port would pass for the site; a server that cannot listen may
    // even stay alive without serving. The launcher must say so and stop, not report "running".
    const blocker = (await import('node:net')).createServer().listen(PORT, '127.0.0.1');
    await new Promise((done) => blocker.once('listening', done));
    try {
      const child = spawn(process.execPath, ['scripts/start.mjs'], {
        env: { ...process.env, HOST: '127.0.0.1', PORT: String(PORT), DATA_DIR: dataDir, FIREBASE_AUTH_EMULATOR_HOST: `${EMULATOR.host}:${EMULATOR.port}`, FIREBASE_SERVICE_ACCOUNT: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      running.push(child);
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      const code = await new Promise<number | null>((done) => child.once('exit', (exitCode) => done(exitCode)));
      expect(code, output).toBe(1);
      expect(output).toContain(`port ${PORT} on 127.0.0.1 is already in use`);
      expect(output).not.toContain('PolyIndex is running');
      expect(output).not.toContain('starting the Firebase Auth emulator');
      expect(await portIsOpen(EMULATOR.host, EMULATOR.port)).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it(
    'an Auth emulator that dies is restarted while the site keeps serving: public pages 200 throughout, sign-in 503 meanwhile, then sign-in and health come back',
    { timeout: 900_000 },
    async () => {
      const dataDir = join(TEST_DATA_DIR, 'start-emulator-crash');
      rmSync(dataDir, { recursive: true, force: true });
      const launcher = await launch(dataDir);
      const base = `http://127.0.0.1:${PORT}`;
      const emulatorHost = `${EMULATOR.host}:${EMULATOR.port}`;
      const server = serverPid(launcher.output());
      const emulatorPid = () =>
        spawnSync('ps', ['-o', 'pid=', '--ppid', String(launcher.child.pid)], { encoding: 'utf8' })
          .stdout.split('\n')
          .map(Number)
          .filter((pid) => pid > 0 && pid !== server);
      const [first] = emulatorPid();
      expect(emulatorPid()).toHaveLength(1);
      // A token for a sign-in while the emulator is down (the browser would have it from before).
      const token = await emulatorToken(emulatorHost, 'basic@polyindex.test');

      // A public page, asked again and again from before the kill until after the return.
      const statuses: number[] = [];
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          statuses.push(await fetch(`${base}/methodology`).then((r) => r.status, () => 0));
          await new Promise((next) => setTimeout(next, 200));
        }
      })();

      process.kill(first!, 'SIGKILL');
      await expect.poll(() => launcher.output(), { timeout: 60_000, interval: 100 }).toMatch(/the Auth emulator stopped unexpectedly \(killed by SIGKILL\) after \d+ s: restarting it in 1 s \(restart 1\)/);
      // While it is down (the restart waits 1 s, then the emulator takes seconds to boot): sign-in
      // answers 503 with its message, and health says Auth is degraded.
      expect(await portIsOpen(EMULATOR.host, EMULATOR.port)).toBe(false);
      const during = await signIn(base, token);
      expect(during.status).toBe(503);
      expect(await during.text()).toContain('Sign-in is unavailable');
      const health = (await (await fetch(`${base}/api/health`)).json()) as { status: string; dependencies: { auth: string } };
      expect(health).toMatchObject({ status: 'degraded', dependencies: { auth: 'degraded' } });

      await expect.poll(() => launcher.output(), { timeout: 600_000, interval: 250 }).toMatch(/the Auth emulator is back after \d+ s \(restart 1\): sign-in works again/);
      expect(launcher.child.exitCode, launcher.output()).toBeNull();
      expect(alive(server), 'the same server').toBe(true);
      const [second] = emulatorPid();
      expect(second).not.toBe(first);
      // The demo accounts are there again, and the site signs one in (once its outage window ends).
      await expect
        .poll(async () => (await signIn(base, await emulatorToken(emulatorHost, 'admin@polyindex.test'))).status, { timeout: 120_000, interval: 1_000 })
        .toBe(200);
      await expect
        .poll(async () => ((await (await fetch(`${base}/api/health`)).json()) as { dependencies: { auth: string } }).dependencies.auth, { timeout: 120_000, interval: 1_000 })
        .toBe('ok');
      watching = false;
      await watcher;
      expect(statuses.length).toBeGreaterThan(5);
      expect(statuses.filter((status) => status !== 200), 'public page statuses other than 200').toEqual([]);

      // Its stop stops the restarted emulator too.
      launcher.child.kill('SIGTERM');
      expect((await launcher.exited).code, launcher.output()).toBe(0);
      expect(alive(second!)).toBe(false);
      expect(await portIsOpen(EMULATOR.host, EMULATOR.port)).toBe(false);
    },
  );

  it('SIGTERM to the launcher stops the server first, then the emulator, and exits 0 within 10 s', { timeout: 600_000 }, async () => {
    const dataDir = join(TEST_DATA_DIR, 'start-stop');
    rmSync(dataDir, { recursive: true, force: true });
    const launcher = await launch(dataDir);
    const pid = serverPid(launcher.output());
    expect((await fetch(`http://127.0.0.1:${PORT}/api/health`)).status).toBe(200);
    // Finding 8: while it runs, the emulator's log is under DATA_DIR (firebase-tools deletes it after a clean exit).
    expect(readdirSync(join(dataDir, 'logs'))).toContain('firebase-debug.log');

    const asked = Date.now();
    launcher.child.kill('SIGTERM');
    const exit = await launcher.exited;
    const took = Date.now() - asked;
    expect(exit, launcher.output()).toEqual({ code: 0, signal: null });
    expect(took).toBeLessThan(10_000);
    expect(launcher.output()).toContain('SIGTERM: stopping');
    expect(launcher.output()).toMatch(/the server stopped \((exit code 0|killed by SIGTERM)\)/);
    expect(alive(pid)).toBe(false);
    expect(await portIsOpen('127.0.0.1', PORT)).toBe(false);
    expect(await portIsOpen(EMULATOR.host, EMULATOR.port)).toBe(false);
  });
});

describe('emulator logs', () => {
  it('the Auth emulator writes its logs under DATA_DIR/logs, never into the working directory', { timeout: 300_000 }, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'polyindex-cwd-'));
    const dataDir = join(cwd, 'data');
    const module = resolve('scripts/lib/auth-emulator.mjs');
    // A process of its own, started in a scratch directory, as `npm start` would be elsewhere.
    const script = `
      const { startAuthEmulator } = await import(${JSON.stringify(module)});
      const emulator = await startAuthEmulator({ emulatorHost: ${JSON.stringify(LOG_TEST_EMULATOR)}, projectId: 'demo-polyindex', dataDir: 'data' });
      console.log('emulator up');
      process.stdin.once('data', async () => { await emulator.stop(); process.exit(0); });
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    running.push(child);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise((done) => child.once('exit', done));
    try {
      await expect.poll(() => (child.exitCode === null ? output : `exited early:\n${output}`), { timeout: 240_000, interval: 250 }).toContain('emulator up');
      expect(readdirSync(cwd).filter((name) => name.endsWith('.log'))).toEqual([]);
      expect(existsSync(join(dataDir, 'logs', 'firebase-debug.log'))).toBe(true);
      child.stdin.write('stop\n');
      await exited;
      expect(readdirSync(cwd).filter((name) => name.endsWith('.log'))).toEqual([]);
    } finally {
      // Stop it through its own handle (a kill of this child would orphan the emulator).
      if (child.exitCode === null) {
        child.stdin.write('stop\n');
        await Promise.race([exited, new Promise((done) => setTimeout(done, 20_000))]);
      }
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('emulator start', () => {
  it('a hub port already taken moves the hub to other free ports, and the hub found there exports the accounts', { timeout: 600_000 }, async () => {
    const dataDir = join(TEST_DATA_DIR, 'start-hub-taken');
    rmSync(dataDir, { recursive: true, force: true });
    const emulatorHost = `${START_TEST_EMULATOR.host}:${START_TEST_EMULATOR.port}`;
    // Before, the hub took the port after the emulator's unconditionally, and the start failed.
    const blocker = (await import('node:net')).createServer().listen(START_TEST_EMULATOR.port + 1, START_TEST_EMULATOR.host);
    await new Promise((done) => blocker.once('listening', done));
    try {
      const emulator = await startAuthEmulator({ emulatorHost, projectId: 'demo-polyindex', dataDir });
      try {
        const hub = hubOf(dataDir, emulatorHost);
        expect(hub).not.toBeNull();
        expect(hub).not.toBe(`${START_TEST_EMULATOR.host}:${START_TEST_EMULATOR.port + 1}`);
        const email = `hub-moved-${Date.now()}@example.test`;
        const made = await fetch(`http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email, password: 'secret-pass' }),
        });
        expect(made.status).toBe(200);
        await exportAuthEmulator({ dataDir, hub: hub! });
        const exported = JSON.parse(readFileSync(join(dataDir, 'auth-emulator', 'auth_export', 'accounts.json'), 'utf8')) as { users: { email: string }[] };
        expect(exported.users.map((u) => u.email)).toEqual([email]);
      } finally {
        await emulator.stop();
      }
    } finally {
      blocker.close();
    }
  });

  it('a start that fails is tried again, and after the last attempt the error says why', { timeout: 600_000 }, async () => {
    const dataDir = join(TEST_DATA_DIR, 'start-broken-export');
    rmSync(dataDir, { recursive: true, force: true });
    // An export the emulator cannot read: every attempt ends while starting.
    mkdirSync(join(dataDir, 'auth-emulator'), { recursive: true });
    writeFileSync(join(dataDir, 'auth-emulator', 'firebase-export-metadata.json'), '{ not json');
    const lines: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void lines.push(args.join(' '));
    try {
      await expect(startAuthEmulator({ emulatorHost: `${START_TEST_EMULATOR.host}:${START_TEST_EMULATOR.port}`, projectId: 'demo-polyindex', dataDir, attempts: 2 })).rejects.toThrow(
        /the Auth emulator did not start \(2 attempts\): it ended while starting/,
      );
    } finally {
      console.error = original;
    }
    expect(lines.filter((line) => line.includes('the Auth emulator did not start (it ended while starting'))).toHaveLength(1);
    expect(lines[0]).toContain('trying again in 1 s');
    expect(await portIsOpen(START_TEST_EMULATOR.host, START_TEST_EMULATOR.port)).toBe(false);
  });
});
