// `npm run restore -- FILE [--force]`: puts a backup of `npm run backup` back into DATA_DIR,
// after checking every file and the store's records against the archive's manifest. Refuses
// while the site runs on that DATA_DIR, and refuses to replace existing data without --force
// (which moves it aside into DATA_DIR/.before-restore-*, never deletes it). Plain Node 24.
import { parseArgs } from 'node:util';
import { readConfig } from '../src/server/config/settings.ts';
import { RestoreRefused, restoreBackup } from '../src/server/ops/backup.ts';

const USAGE = `Usage: npm run restore -- FILE [--force]

  FILE     an archive written by npm run backup
  --force  replace the data already in DATA_DIR (moved aside into DATA_DIR/.before-restore-*)

Writes into DATA_DIR (default ./data). Stop the site first. Exit status: 0 restored, 1 failed,
2 refused or bad usage.`;

let parsed: { values: { force?: boolean | undefined; help?: boolean | undefined }; positionals: string[] };
try {
  parsed = parseArgs({ options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}
if (parsed.values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (parsed.positionals.length !== 1) {
  console.error(USAGE);
  process.exit(2);
}

const { dataDir } = readConfig((name) => process.env[name]);
try {
  const { manifest, movedAside } = await restoreBackup({ file: parsed.positionals[0]!, dataDir, force: parsed.values.force ?? false });
  if (movedAside) console.log(`[restore] the data that was there is in ${movedAside}`);
  if (manifest.store) console.log(`[restore] store: ${manifest.store.summaries.map((s) => `${s.kind} ${s.count}`).join(', ')} (checksums match)`);
  if (manifest.authAccounts) console.log(`[restore] Auth emulator accounts: ${manifest.authAccounts.count} (the next npm start imports them)`);
  console.log(`[restore] files: ${manifest.files.length} (checksums match)`);
  if (manifest.note) console.log(`[restore] note: ${manifest.note}`);
  console.log(`[restore] restored the backup of ${manifest.createdAt} into ${dataDir}`);
} catch (error) {
  console.error(`[restore] ${error instanceof RestoreRefused ? 'refused' : 'failed'}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(error instanceof RestoreRefused ? 2 : 1);
}
