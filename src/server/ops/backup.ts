/**
 * Backups of the embedded default (`npm run backup`, `npm run restore`): one `.tar.gz` with a
 * consistent snapshot of the SQLite store, taken while the site runs (`VACUUM INTO`: one read
 * transaction, never a torn copy of a file being written), and every other file of DATA_DIR
 * the site keeps (mail and WhatsApp outboxes, banner files from before images moved into the
 * store, the sandbox secret, the Auth emulator's accounts). A manifest lists each file's SHA-256
 * and the store's record counts and checksums; restore checks both before it puts anything back.
 * The Auth emulator's accounts are exported from the running emulator first (its hub's export
 * call), so accounts made since its last export are in the archive too.
 *
 * Runs under plain Node 24 (type stripping, from scripts/backup.ts and scripts/restore.ts):
 * erasable TypeScript only, imports with their .ts extensions, no astro:* modules.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, readlink, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import * as tar from 'tar';
import { createClient } from '@libsql/client';
import { summarizeKind } from '../store/copy.ts';
import { openStore, sqliteUrlFor } from '../store/index.ts';
import { TRANSFER_KINDS } from '../store/kinds.ts';
import { answers, authEmulatorStateDir, exportAuthEmulator, exportedAccountCount, hubOf } from './authEmulatorExport.ts';

/** The database file's name in DATA_DIR and in the archive. */
export const STORE_FILE = basename(sqliteUrlFor('/x').slice('file:'.length));
export const MANIFEST_FILE = 'backup-manifest.json';
const FORMAT = 1;

/**
 * What is not copied from DATA_DIR: the live database files (the snapshot stands for them),
 * caches and logs the site recreates, the emulator's generated config, dot-files (temporary
 * files and restore leftovers), and backups kept there.
 */
const SKIP_TOP = new Set([STORE_FILE, `${STORE_FILE}-wal`, `${STORE_FILE}-shm`, `${STORE_FILE}-journal`, 'logs', 'firebase.json', 'backups']);
const skipped = (path: string): boolean => {
  const [top] = path.split('/');
  return SKIP_TOP.has(top!) || path.split('/').some((part) => part.startsWith('.')) || path.endsWith('.tmp');
};

export interface ManifestFile {
  readonly path: string;
  readonly size: number;
  readonly sha256: string;
}

export interface StoreSummary {
  readonly kind: string;
  readonly count: number;
  readonly checksum: string;
}

export interface BackupManifest {
  readonly format: number;
  readonly createdAt: string;
  /** The store snapshot, or null when the store is not a local SQLite file (see `note`). */
  readonly store: { readonly file: string; readonly sha256: string; readonly summaries: readonly StoreSummary[] } | null;
  readonly files: readonly ManifestFile[];
  /** The Auth emulator's accounts in `auth-emulator/` (emulator mode): how many, and from where. */
  readonly authAccounts?: { readonly count: number; readonly from: 'running emulator' | 'last export' };
  readonly note?: string;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every regular file under `root` (relative, `/`-separated, sorted), symlinks refused. */
async function filesUnder(root: string, skip: (path: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      const path = relative(root, full).split(sep).join('/');
      if (skip(path)) continue;
      if (entry.isSymbolicLink()) throw new Error(`${path} is a symbolic link (to ${await readlink(full)}): copy what it points to into DATA_DIR first`);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) found.push(path);
    }
  }
  if (existsSync(root)) await walk(root);
  return found;
}

/**
 * Record counts and checksums of a store file, kind by kind (as store:copy proves a copy).
 * Read from a scratch copy: opening a store may migrate it and switch it to WAL, and the file
 * itself must stay byte for byte what its checksum says.
 */
async function summariesOf(file: string): Promise<StoreSummary[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'polyindex-summary-'));
  const copy = join(scratch, STORE_FILE);
  await copyFile(file, copy);
  const store = await openStore({ url: `file:${copy}` });
  try {
    const summaries: StoreSummary[] = [];
    for (const kind of TRANSFER_KINDS) {
      const { count, checksum } = await summarizeKind(store, kind);
      summaries.push({ kind, count, checksum });
    }
    return summaries;
  } finally {
    await store.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Checks a database file and leaves it self-contained: integrity checked, its write-ahead log
 * folded in and removed (journal mode DELETE), so the one file is the whole database.
 */
async function settle(file: string): Promise<void> {
  const client = createClient({ url: `file:${file}` });
  try {
    const result = await client.execute('PRAGMA integrity_check');
    const verdict = String(result.rows[0]?.[0] ?? '');
    if (verdict !== 'ok') throw new Error(`${basename(file)} fails SQLite's integrity check: ${verdict}`);
    await client.execute('PRAGMA journal_mode = DELETE');
  } finally {
    client.close();
  }
}

export interface BackupOptions {
  readonly dataDir: string;
  /** The archive to write (its folder is created). */
  readonly out: string;
  /** The store's URL when it is not the file in DATA_DIR (LIBSQL_URL); null/undefined: that file. */
  readonly storeUrl?: string | null | undefined;
  /** DATA_BACKEND=firestore: the store is not in DATA_DIR at all. */
  readonly firestore?: boolean;
  /** Emulator mode: the Auth emulator's host:port, whose accounts are exported first when it runs. */
  readonly authEmulatorHost?: string | null | undefined;
  readonly now?: Date;
}

export interface BackupResult {
  readonly file: string;
  readonly manifest: BackupManifest;
  readonly bytes: number;
}

/** Writes one archive of DATA_DIR with a consistent store snapshot; safe while the site runs. */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const dataDir = resolve(options.dataDir);
  const out = resolve(options.out);
  const now = options.now ?? new Date();
  await mkdir(dirname(out), { recursive: true });
  // The staging folder sits beside the archive (same disk, never inside DATA_DIR's listing).
  const staging = await mkdtemp(join(dirname(out), '.backup-'));
  try {
    let store: BackupManifest['store'] = null;
    let note: string | undefined;
    const remote = options.storeUrl && !options.storeUrl.startsWith('file:');
    if (options.firestore) {
      note = 'The store is Firestore: back it up with its managed export (docs/deploy.md, "Backups"). This archive holds the files of DATA_DIR.';
    } else if (remote) {
      note = 'The store is a libSQL server: back it up with that server\'s own tools. This archive holds the files of DATA_DIR.';
    } else {
      const live = options.storeUrl ? options.storeUrl.slice('file:'.length) : join(dataDir, STORE_FILE);
      if (!existsSync(live)) throw new Error(`There is no store at ${live}: nothing to back up (start the site once, or set DATA_DIR).`);
      const snapshot = join(staging, STORE_FILE);
      // VACUUM INTO copies the database as one read transaction sees it: writers carry on, and
      // the copy is whole and compact. A second connection, so the site's own is not held.
      const client = createClient({ url: `file:${live}` });
      try {
        await client.execute('PRAGMA busy_timeout = 10000');
        await client.execute({ sql: 'VACUUM INTO ?', args: [snapshot] });
      } finally {
        client.close();
      }
      await settle(snapshot);
      store = { file: STORE_FILE, sha256: await sha256Of(snapshot), summaries: await summariesOf(snapshot) };
    }

    const notes = note ? [note] : [];
    let authAccounts: BackupManifest['authAccounts'];
    if (options.authEmulatorHost) {
      const exported = await exportRunningAuthEmulator(dataDir, options.authEmulatorHost);
      if (exported.note) notes.push(exported.note);
      const count = exportedAccountCount(authEmulatorStateDir(dataDir));
      if (count !== null) authAccounts = { count, from: exported.fresh ? 'running emulator' : 'last export' };
    }
    note = notes.length > 0 ? notes.join(' ') : undefined;

    const files: ManifestFile[] = [];
    for (const path of await filesUnder(dataDir, skipped)) {
      const full = join(dataDir, path);
      files.push({ path, size: (await stat(full)).size, sha256: await sha256Of(full) });
    }
    const manifest: BackupManifest = { format: FORMAT, createdAt: now.toISOString(), store, files, ...(authAccounts ? { authAccounts } : {}), ...(note ? { note } : {}) };
    await writeFile(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);

    // Files are read from DATA_DIR as they are now; one that changes between its checksum and
    // the archive would fail the restore's check, so they are archived from a copy in staging.
    for (const file of files) {
      await mkdir(dirname(join(staging, 'files', file.path)), { recursive: true });
      await writeFile(join(staging, 'files', file.path), await readFile(join(dataDir, file.path)));
    }
    const stagedFiles = await filesUnder(staging, () => false);
    for (const file of files) {
      const copy = join(staging, 'files', file.path);
      if ((await sha256Of(copy)) !== file.sha256) throw new Error(`${file.path} changed while it was copied: run the backup again`);
    }
    const temporary = `${out}.partial`;
    await tar.create({ gzip: true, file: temporary, cwd: staging, portable: true, noMtime: false }, stagedFiles);
    await rename(temporary, out);
    return { file: out, manifest, bytes: (await stat(out)).size };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * The running Auth emulator's accounts written into DATA_DIR/auth-emulator (which the backup
 * then copies): `fresh` when they were. Not running: the accounts of its last export (when it
 * stopped, or the launcher's last periodic export). Started for another DATA_DIR (or by hand):
 * its accounts are not this DATA_DIR's, and the note says so.
 */
async function exportRunningAuthEmulator(dataDir: string, emulatorHost: string): Promise<{ fresh: boolean; note?: string }> {
  if (!(await answers(emulatorHost))) {
    return { fresh: false, note: `The Auth emulator (${emulatorHost}) was not running: its accounts are those of its last export.` };
  }
  const hub = hubOf(dataDir, emulatorHost);
  if (!hub) return { fresh: false, note: `The Auth emulator at ${emulatorHost} was not started by npm start for this DATA_DIR: its accounts are not in this archive.` };
  await exportAuthEmulator({ dataDir, hub });
  return { fresh: true };
}

export interface RestoreOptions {
  readonly file: string;
  readonly dataDir: string;
  /** Replace a DATA_DIR that already holds data (moved aside, not deleted). */
  readonly force?: boolean;
  readonly now?: Date;
}

export interface RestoreResult {
  readonly manifest: BackupManifest;
  /** Where the data it replaced was moved, if any. */
  readonly movedAside: string | null;
}

/** Processes (other than this one) that have `file` open, by pid: Linux's /proc, else none known. */
export async function processesWithOpen(file: string): Promise<number[]> {
  const target = resolve(file);
  if (!existsSync('/proc/self/fd')) return [];
  const pids: number[] = [];
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      if (link === target || link === `${target}-wal` || link === `${target}-shm`) {
        pids.push(Number(pid));
        break;
      }
    }
  }
  return pids;
}

export class RestoreRefused extends Error {}

/** Checks an archive against its manifest and puts it into DATA_DIR. */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const dataDir = resolve(options.dataDir);
  const archive = resolve(options.file);
  if (!existsSync(archive)) throw new RestoreRefused(`There is no backup at ${archive}.`);
  await mkdir(dataDir, { recursive: true });

  // A running site keeps its database open: never pull files from under it.
  const users = await processesWithOpen(join(dataDir, STORE_FILE));
  if (users.length > 0) throw new RestoreRefused(`The site is running on ${dataDir} (process ${users.join(', ')} has its database open): stop it first.`);

  const staging = await mkdtemp(join(dataDir, '.restore-'));
  try {
    await tar.extract({ file: archive, cwd: staging, strict: true, preservePaths: false });
    const manifestPath = join(staging, MANIFEST_FILE);
    if (!existsSync(manifestPath)) throw new RestoreRefused(`${archive} is not a PolyIndex backup (no ${MANIFEST_FILE}).`);
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as BackupManifest;
    if (manifest.format !== FORMAT) throw new RestoreRefused(`Backup format ${manifest.format} is not one this version reads (${FORMAT}).`);

    // Everything is checked before anything is moved.
    for (const file of manifest.files) {
      if (file.path.split('/').some((part) => part === '..' || part === '' || part.startsWith('.'))) throw new RestoreRefused(`Refusing the path ${file.path}.`);
      const copy = join(staging, 'files', file.path);
      if (!existsSync(copy) || (await sha256Of(copy)) !== file.sha256) throw new RestoreRefused(`${file.path} does not match its checksum: the archive is damaged.`);
    }
    if (manifest.store) {
      const snapshot = join(staging, manifest.store.file);
      if (!existsSync(snapshot) || (await sha256Of(snapshot)) !== manifest.store.sha256) throw new RestoreRefused('The store snapshot does not match its checksum: the archive is damaged.');
      // The records themselves, kind by kind, as counted when the backup was made.
      const summaries = await summariesOf(snapshot);
      for (const expected of manifest.store.summaries) {
        const actual = summaries.find((s) => s.kind === expected.kind);
        if (actual?.count !== expected.count || actual.checksum !== expected.checksum) {
          throw new RestoreRefused(`The store snapshot's ${expected.kind} do not match the manifest: the archive is damaged.`);
        }
      }
    }

    const present = (await readdir(dataDir)).filter((name) => !name.startsWith('.'));
    let movedAside: string | null = null;
    if (present.length > 0) {
      if (!options.force) {
        throw new RestoreRefused(`${dataDir} already holds data (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''}): restore with --force to replace it (it is moved aside, not deleted).`);
      }
      movedAside = join(dataDir, `.before-restore-${(options.now ?? new Date()).toISOString().replace(/[:.]/g, '-')}`);
      await mkdir(movedAside);
      for (const name of present) await rename(join(dataDir, name), join(movedAside, name));
    }

    if (manifest.store) await rename(join(staging, manifest.store.file), join(dataDir, STORE_FILE));
    for (const file of manifest.files) {
      await mkdir(dirname(join(dataDir, file.path)), { recursive: true });
      await rename(join(staging, 'files', file.path), join(dataDir, file.path));
    }
    return { manifest, movedAside };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** `polyindex-2026-11-24T10-15-30Z.tar.gz` */
export const defaultBackupName = (now: Date): string => `polyindex-${now.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-')}.tar.gz`;
