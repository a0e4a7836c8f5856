/**
 * The Auth emulator's accounts written to DATA_DIR/auth-emulator while it runs, through the
 * emulator hub's export call (`POST /_admin/export` of firebase-tools, the call behind
 * `firebase emulators:export`). The hub writes the same files the emulator writes when it stops
 * (`firebase-export-metadata.json`, `auth_export/accounts.json`, `auth_export/config.json`) and
 * swaps them in whole, and the next start imports them. Used by `npm start` (after each start of
 * the emulator and every few minutes) and by `npm run backup`.
 *
 * Runs under plain Node 24 (from scripts/): erasable TypeScript only, imports with .ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join, resolve } from 'node:path';

/** Where the launcher keeps the emulator's accounts (imported at each start, exported at each stop). */
export const authEmulatorStateDir = (dataDir: string): string => join(resolve(dataDir), 'auth-emulator');
/** The emulator's configuration the launcher writes for each start (its auth, hub and logging ports). */
export const authEmulatorConfigFile = (dataDir: string): string => join(resolve(dataDir), 'firebase.json');

interface EmulatorConfig {
  readonly emulators?: { readonly auth?: { host?: string; port?: number }; readonly hub?: { host?: string; port?: number } };
}

/**
 * The hub of the Auth emulator the launcher started for `dataDir` on `emulatorHost`, or null
 * when DATA_DIR's firebase.json names another emulator (or none): one started elsewhere keeps
 * its accounts elsewhere.
 */
export function hubOf(dataDir: string, emulatorHost: string): string | null {
  const file = authEmulatorConfigFile(dataDir);
  if (!existsSync(file)) return null;
  let config: EmulatorConfig;
  try {
    config = JSON.parse(readFileSync(file, 'utf8')) as EmulatorConfig;
  } catch {
    return null;
  }
  const auth = config.emulators?.auth;
  const hub = config.emulators?.hub;
  if (!auth || !hub?.port || `${auth.host}:${auth.port}` !== emulatorHost) return null;
  return `${hub.host ?? auth.host}:${hub.port}`;
}

/** The export's own bound: a few thousand accounts take well under a second; a loaded machine, more. */
const EXPORT_TIMEOUT_MS = 60_000;

/**
 * Asks the hub to write the emulator's accounts into DATA_DIR/auth-emulator now. Throws with the
 * hub's answer when it fails (the previous export stays as it was: the hub swaps in a whole one).
 */
export async function exportAuthEmulator(options: { dataDir: string; hub: string }): Promise<void> {
  const response = await fetch(`http://${options.hub}/_admin/export`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ path: authEmulatorStateDir(options.dataDir), initiatedBy: 'polyindex', targets: ['auth'] }),
    signal: AbortSignal.timeout(EXPORT_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`the Auth emulator's hub at ${options.hub} refused the export: ${response.status} ${await response.text()}`);
}

/** Whether something listens on `host:port` (the emulator's own port). */
export function answers(hostAndPort: string): Promise<boolean> {
  const [host, port] = hostAndPort.split(':');
  return new Promise((done) => {
    const socket = createConnection({ host: host!, port: Number(port) });
    socket.setTimeout(5_000, () => {
      socket.destroy();
      done(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** How many accounts the export in DATA_DIR/auth-emulator holds (its default tenant), or null when there is none. */
export function exportedAccountCount(stateDir: string): number | null {
  const file = join(stateDir, 'auth_export', 'accounts.json');
  if (!existsSync(file)) return null;
  try {
    const { users } = JSON.parse(readFileSync(file, 'utf8')) as { users?: unknown[] };
    return Array.isArray(users) ? users.length : 0;
  } catch {
    return null;
  }
}
