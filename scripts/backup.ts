// `npm run backup [-- --out FILE]`: one .tar.gz of the embedded default's data, safe while the
// site runs: a consistent snapshot of the SQLite store and the other files of DATA_DIR, with a
// manifest of checksums. See docs/deploy.md ("Backups"). Runs under plain Node 24.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig } from '../src/server/config/settings.ts';
import { createBackup, defaultBackupName } from '../src/server/ops/backup.ts';

const USAGE = `Usage: npm run backup [-- --out FILE]

  --out FILE   the archive to write (default: backups/${defaultBackupName(new Date())})

Reads DATA_DIR (default ./data), and LIBSQL_URL / DATA_BACKEND / FIREBASE_AUTH_EMULATOR_HOST as
the site does: a running Auth emulator's accounts are exported into the archive. Exit status:
0 written, 1 failed, 2 bad usage.`;

let values: { out?: string | undefined; help?: boolean | undefined };
try {
  ({ values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const now = new Date();
const { dataDir, store, modes, firebase } = readConfig((name) => process.env[name]);
const out = resolve(values.out ?? join('backups', defaultBackupName(now)));
const libsql = store.LIBSQL_URL?.trim();
try {
  const { file, manifest, bytes } = await createBackup({
    dataDir,
    out,
    storeUrl: libsql || null,
    firestore: store.DATA_BACKEND === 'firestore',
    // Emulator mode: a running Auth emulator's accounts are exported first.
    authEmulatorHost: modes.authEmulator ? firebase.authEmulatorHost : null,
    now,
  });
  if (manifest.store) {
    const records = manifest.store.summaries.map((s) => `${s.kind} ${s.count}`).join(', ');
    console.log(`[backup] store snapshot: ${records}`);
  }
  if (manifest.authAccounts) console.log(`[backup] Auth emulator accounts: ${manifest.authAccounts.count} (from the ${manifest.authAccounts.from})`);
  console.log(`[backup] files: ${manifest.files.length} (${manifest.files.map((f) => f.path.split('/')[0]).filter((v, i, a) => a.indexOf(v) === i).join(', ') || 'none'})`);
  if (manifest.note) console.log(`[backup] note: ${manifest.note}`);
  console.log(`[backup] wrote ${file} (${(bytes / 1024 / 1024).toFixed(1)} MiB)`);
} catch (error) {
  console.error(`[backup] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
