// `npm run store:copy -- --from sqlite --to firestore`: copies every record of one store into
// another (ids, states and timestamps kept), then proves it by counts and SHA-256 checksums
// of both sides, re-read after the copy. See docs/data.md ("Moving data between stores").
// Runs under plain Node 24 (type stripping): imports carry their .ts extensions.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { readConfig } from '../src/server/config/settings.ts';
import { copyStore, reportTable } from '../src/server/store/copy.ts';
import { describeStore, openConfiguredStore, storeConfigFrom, type StoreConfig } from '../src/server/store/open.ts';
import { isTransferKind, TRANSFER_KINDS, type TransferKind } from '../src/server/store/kinds.ts';
import type { TransferStore } from '../src/server/store/transfer.ts';

const USAGE = `Usage: npm run store:copy -- --from <side> --to <side> [--only kind,kind] [--merge] [--dry-run]

  <side>     sqlite     the SQLite store the environment names (LIBSQL_URL, else DATA_DIR)
             firestore  the Firestore the environment names (FIREBASE_PROJECT_ID with
                        FIREBASE_SERVICE_ACCOUNT or FIRESTORE_EMULATOR_HOST; FIRESTORE_DATABASE_ID)
             sqlite:<DATA_DIR | file:… URL | libsql://… URL>   another SQLite store
  --only     kinds to copy (default all): ${TRANSFER_KINDS.join(', ')}
  --merge    write into a target that already holds records of a kind (upserts by identity)
  --dry-run  only count and checksum the source

Exit status: 0 copied and verified, 1 verification failed, 2 refused or bad usage.`;

type Side = TransferStore & { close(): Promise<void> };

// Google's client libraries probe the cloud metadata address without real credentials.
if (!process.env['FIREBASE_SERVICE_ACCOUNT']) process.env['METADATA_SERVER_DETECTION'] ??= 'none';

function configOf(side: string): StoreConfig {
  // Each side is configured from the environment as the site is (src/server/config/settings.ts).
  const settings = readConfig((name) => process.env[name]).store;
  if (side === 'sqlite' || side === 'firestore') return storeConfigFrom({ ...settings, DATA_BACKEND: side });
  if (side.startsWith('sqlite:')) {
    const where = side.slice('sqlite:'.length);
    const isUrl = /^(file|libsql|https?|wss?):/.test(where);
    return storeConfigFrom({ DATA_BACKEND: 'sqlite', ...(isUrl ? { LIBSQL_URL: where, LIBSQL_AUTH_TOKEN: settings.LIBSQL_AUTH_TOKEN } : { DATA_DIR: resolve(where) }) });
  }
  throw new Error(`not a store: ${JSON.stringify(side)} (sqlite, firestore or sqlite:<path>)`);
}

const open = (config: StoreConfig): Promise<Side> => openConfiguredStore(config);
const describe = describeStore;

function fail(message: string): never {
  console.error(`[store:copy] ${message}`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      only: { type: 'string' },
      merge: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values;
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const dryRun = args['dry-run'];
if (!args.from || (!args.to && !dryRun)) fail(`--from and --to are required\n${USAGE}`);

let kinds: TransferKind[] = [...TRANSFER_KINDS];
if (args.only) {
  const asked = args.only.split(',').map((kind) => kind.trim()).filter(Boolean);
  const unknown = asked.filter((kind) => !isTransferKind(kind));
  if (unknown.length > 0 || asked.length === 0) fail(`unknown kind(s) ${unknown.join(', ')}; kinds are ${TRANSFER_KINDS.join(', ')}`);
  kinds = TRANSFER_KINDS.filter((kind) => asked.includes(kind));
}

let sourceConfig: StoreConfig;
let targetConfig: StoreConfig | null;
try {
  sourceConfig = configOf(args.from);
  targetConfig = args.to ? configOf(args.to) : null;
} catch (error) {
  fail((error as Error).message);
}
if (targetConfig && JSON.stringify(sourceConfig) === JSON.stringify(targetConfig)) fail(`source and target are the same store (${describe(sourceConfig)})`);

const started = performance.now();
const openOrFail = (config: StoreConfig): Promise<Side> =>
  open(config).catch((error: unknown) => fail(`cannot open ${describe(config)}: ${(error as Error).message}`));
const source = await openOrFail(sourceConfig);
const target = targetConfig && !dryRun ? await openOrFail(targetConfig) : null;
let status = 0;
try {
  console.log(`[store:copy] from ${describe(sourceConfig)}${target && targetConfig ? ` to ${describe(targetConfig)}` : ''}${dryRun ? ' (dry run)' : ''}; kinds: ${kinds.join(', ')}`);
  const result = await copyStore({
    source,
    target: target ?? source,
    kinds,
    merge: args.merge,
    dryRun,
    log: (line) => console.log(`[store:copy] ${line}`),
  });
  if (result.outcome === 'refused') {
    const found = result.found.map(({ kind, atLeast }) => `${kind} (at least ${atLeast} records)`).join(', ');
    console.error(`[store:copy] refused: the target already holds ${found}. Nothing was written. Pass --merge to upsert into it.`);
    status = 2;
  } else {
    console.log(reportTable(result.kinds));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (result.outcome === 'dry-run') {
      console.log(`[store:copy] dry run: source counted and checksummed in ${seconds} s; nothing written`);
    } else if (result.ok) {
      console.log(`[store:copy] verified: every kind has the same count and checksum on both sides (${seconds} s)`);
    } else {
      const bad = result.kinds.filter((report) => !report.match).map((report) => report.kind);
      console.error(`[store:copy] VERIFICATION FAILED for ${bad.join(', ')}: the target differs from the source${args.merge ? ' (with --merge, records the target held before count too)' : ''}`);
      status = 1;
    }
  }
} finally {
  await source.close();
  await target?.close();
}
process.exit(status);
