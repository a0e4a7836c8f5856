/**
 * `npm run backup` and `npm run restore` (scripts/backup.ts, scripts/restore.ts) run for real
 * as child processes on real SQLite files: a backup taken while another connection keeps
 * writing restores to a whole database whose records match the manifest; a backup of a quiet
 * store restores to the same records (store:copy's checksums) and the same files (SHA-256);
 * restore refuses a running site, existing data without --force, and a damaged archive; in
 * emulator mode, an account made in the running Auth emulator is in the backup and signs in on a
 * fresh emulator after the restore.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allSeries, FX_SERIES_ID } from '../../src/lib/seriesCatalog.ts';
import { MANIFEST_FILE, STORE_FILE, type BackupManifest } from '../../src/server/ops/backup.ts';
import { findListLine, producerPriceRecord } from '../../src/lib/producerPrices.ts';
import { verifyKinds } from '../../src/server/store/copy.ts';
import { openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { startAuthEmulator, type AuthEmulator } from '../../scripts/lib/auth-emulator.mjs';
import { freePortRun } from '../../scripts/lib/ports.mjs';
import { TEST_DATA_DIR } from './env.ts';
import { userRecordOf } from './helpers.ts';

const run = promisify(execFile);
const RANGED = 'historical.ppRaffia.cif-ns';
/** An offer day with a range cell and a single one (issue 20). */
const OFFER_DAY = { country: 'India', date: '2026-11-16', data: { PP: { Raffia: 1012.5, Film: 1100 } }, ranges: { PP: { Raffia: { low: 1005, high: 1020 } } } };
const root = resolve(TEST_DATA_DIR, 'backup');
const source = join(root, 'data');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** The files a site keeps in DATA_DIR (kept by a backup) and the ones it recreates (left out). */
const KEPT: Record<string, string | Buffer> = {
  'outbox/2026-11-24T10-15-30-123Z-abc-polyindex.test.eml': 'Subject: Welcome\r\n\r\nHello.\r\n',
  'whatsapp-outbox/2026-11-24T10-16-00-000Z-wamid.1.json': '{"to":"+919800000000","text":"Brent 88.88"}',
  'banners/legacy-banner.png': PNG,
  'sandbox-payment-secret': 'a-local-secret',
  'auth-emulator/auth_export/accounts.json': '{"users":[]}',
};
const LEFT_OUT = ['logs/firebase-debug.log', '.firebase/cache.json', 'firebase.json', 'outbox/.2026-x.eml.123.tmp'];


const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

const node = (script: string, args: string[], dataDir: string, env: Record<string, string> = {}) =>
  run(process.execPath, [script, ...args], { env: { ...process.env, DATA_DIR: dataDir, LIBSQL_URL: '', DATA_BACKEND: 'sqlite', ...env }, timeout: 240_000 }).then(
    (r) => ({ code: 0, ...r }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
const backup = (out: string, dataDir = source, env: Record<string, string> = {}) => node('scripts/backup.ts', ['--out', out], dataDir, env);
const restore = (file: string, dataDir: string, ...flags: string[]) => node('scripts/restore.ts', [file, ...flags], dataDir);

let store: Store;

beforeAll(async () => {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(source, { recursive: true });
  store = await openStore({ url: sqliteUrlFor(source) });
  for (let i = 0; i < 25; i++) expect(await store.createUser(userRecordOf(`backup-user-${i}`))).toBe(true);
  await store.putBannerImage({ name: `${randomUUID()}.png`, contentType: 'image/png', bytes: PNG });
  const raffia = findListLine('iocl.ppRaffia.panipat')!;
  const entered = { at: new Date('2026-11-20T06:00:00.000Z'), by: 'admin-1' };
  const prices = [producerPriceRecord(raffia, '2026-11-10', 105, entered), producerPriceRecord(raffia, '2026-11-17', 103.5, entered)];
  await store.adminWriteProducerPrices({ records: prices, actor: { uid: 'admin-1', email: null }, now: entered.at, via: 'import', dryRun: false });
  // A producer revision alert and its recorded firing (issue 20): carried as an alert and a sent-log record.
  const revisionAlert = { id: 'al_rev', uid: 'backup-user-1', instrument: 'revisions.PP.iocl', kind: 'revision' as const, value: 0, channels: ['email' as const], reached: null, firedFor: null, crossings: 0, createdAt: '2026-11-20T05:00:00.000Z', updatedAt: '2026-11-20T05:00:00.000Z' };
  expect(await store.createAlert(revisionAlert)).toBe(true);
  expect(await store.recordAlertFiring('al_rev', [{ uid: 'backup-user-1', kind: 'alert', ref: 'al_rev#iocl.PP.2026-11-17', channel: 'email', payload: '{}' }], entered.at)).toBe(true);
  // A range and a single value (issue 20): the manifest's checksums cover low and high.
  await store.upsertSeries(allSeries.filter((s) => s.id === RANGED || s.id === FX_SERIES_ID));
  await store.upsertPoints([{ seriesId: RANGED, date: '2026-11-20', value: 1015, low: 1005, high: 1025 }, { seriesId: FX_SERIES_ID, date: '2026-11-20', value: 90.25 }]);
  await store.upsertCityPrices([{ city: 'pune', polymerType: 'PP', grade: 'ppRaffia', price: 110, low: 109, high: 111, date: '2026-11-23' }]);
  await store.upsertOffers([OFFER_DAY]);
  const forecast = { id: 'baseline.fx.usdinr.1w.2026-11-13', seriesId: 'fx.usdinr', horizon: '1w' as const, direction: 'flat' as const, low: 88.1, high: 88.9, rationale: 'ETS', by: { kind: 'baseline' as const, method: 'ets' as const }, publishedAt: '2026-11-13T12:30:00.000Z', baseDate: '2026-11-13', baseValue: 88.5, endDate: '2026-11-20', flatBandPct: 0.3, supersedes: null };
  await store.addForecasts([forecast]);
  await store.putScores([{ forecastId: forecast.id, seriesId: 'fx.usdinr', revision: 1, scoredAt: '2026-11-21T06:00:00.000Z', actual: { date: '2026-11-20', value: 88.6 }, outcome: { insideRange: true, actualDirection: 'flat', directionRight: true, absPctError: 0.11 }, earlier: [] }]);
  // The weekly forecast digest: the option on the settings and its sent-log record.
  await store.saveDeliverySettings({ uid: 'backup-user-0', series: ['city.mumbai.ppRaffia'], email: true, whatsapp: false, hour: 9, forecastDigest: true, whatsappNumber: null, whatsappVerifiedAt: null, pending: null, updatedAt: '2026-11-30T03:00:00.000Z' });
  const digestClaim = await store.claimDelivery({ uid: 'backup-user-0', kind: 'digest', ref: '2026-11-30', channel: 'email' }, new Date('2026-11-30T04:00:00.000Z'));
  await store.completeDelivery(digestClaim!, new Date('2026-11-30T04:00:01.000Z'));
  await store.importRecords('seats', [{ id: 'backupseat000001', ownerUid: 'backup-user-0', email: 'backup-user-1@example.test', status: 'pending', tokenHash: 'cd'.repeat(32), invitedAt: '2026-11-20T06:00:00.000Z', inviteExpiresAt: '2026-11-27T06:00:00.000Z', holderUid: null, acceptedAt: null }]);
  for (const [path, content] of Object.entries(KEPT)) {
    mkdirSync(join(source, path, '..'), { recursive: true });
    writeFileSync(join(source, path), content);
  }
  for (const path of LEFT_OUT) {
    mkdirSync(join(source, path, '..'), { recursive: true });
    writeFileSync(join(source, path), 'scratch');
  }
});

afterAll(async () => {
  await store.close();
});

const manifestOf = async (archive: string): Promise<BackupManifest> => {
  let text = '';
  await tar.list({ file: archive, onReadEntry: (entry) => (entry.path === MANIFEST_FILE ? entry.on('data', (d: Buffer) => (text += d)) : entry.resume()) });
  return JSON.parse(text) as BackupManifest;
};

describe('npm run backup / restore', () => {
  it('a backup taken while writes go on restores to a whole database that matches its manifest', { timeout: 300_000 }, async () => {
    const archive = join(root, 'busy.tar.gz');
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await store.createUser(userRecordOf(`busy-${written++}`));
        // The local driver answers without touching the event loop: let the child's I/O in.
        await new Promise((next) => setImmediate(next));
      }
    })();
    const result = await backup(archive);
    writing = false;
    await writer;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('[backup] wrote');
    expect(written).toBeGreaterThan(0);

    const manifest = await manifestOf(archive);
    const users = manifest.store!.summaries.find((s) => s.kind === 'users')!.count;
    // Some of the writes, all of them, or none: whatever one moment saw, never a torn file.
    expect(users).toBeGreaterThanOrEqual(25);
    expect(users).toBeLessThanOrEqual(25 + written);

    const target = join(root, 'restored-busy');
    const restored = await restore(archive, target);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('checksums match');
    const copy = await openStore({ url: sqliteUrlFor(target) });
    try {
      let count = 0;
      for await (const page of copy.exportRecords('users')) count += page.length;
      expect(count).toBe(users);
    } finally {
      await copy.close();
    }
  });

  it('a backup of a quiet store restores the same records and the same files, and leaves out what the site recreates', { timeout: 300_000 }, async () => {
    const archive = join(root, 'quiet.tar.gz');
    const result = await backup(archive);
    expect(result.code, result.stderr).toBe(0);
    const manifest = await manifestOf(archive);
    expect(manifest.files.map((f) => f.path).sort()).toEqual(Object.keys(KEPT).sort());
    for (const file of manifest.files) expect(file.sha256).toBe(sha256(readFileSync(join(source, file.path))));

    const target = join(root, 'restored-quiet');
    const restored = await restore(archive, target);
    expect(restored.code, restored.stderr).toBe(0);
    for (const [path, content] of Object.entries(KEPT)) expect(sha256(readFileSync(join(target, path))), path).toBe(sha256(content));
    for (const path of LEFT_OUT) expect(existsSync(join(target, path)), path).toBe(false);
    expect(readdirSync(target).filter((name) => name.startsWith(STORE_FILE))).toEqual([STORE_FILE]);

    const copy = await openStore({ url: sqliteUrlFor(target) });
    try {
      const reports = await verifyKinds(store, copy);
      for (const report of reports) expect(report, report.kind).toMatchObject({ match: true });
      expect(reports.find((r) => r.kind === 'bannerImages')).toMatchObject({ match: true });
      expect(reports.find((r) => r.kind === 'producerPrices')).toMatchObject({ match: true, source: { count: 2 } });
      expect(await copy.points(RANGED)).toEqual([{ date: '2026-11-20', value: 1015, low: 1005, high: 1025 }]);
      expect(await copy.points(FX_SERIES_ID)).toEqual([{ date: '2026-11-20', value: 90.25 }]);
      expect(await copy.latestCitySheet('pune')).toEqual([{ city: 'pune', polymerType: 'PP', grade: 'ppRaffia', price: 110, low: 109, high: 111, date: '2026-11-23' }]);
      expect(await copy.offersInMonth('India', 2026, 11)).toEqual([OFFER_DAY]);
      for (const kind of ['forecasts', 'scores', 'seats']) expect(reports.find((r) => r.kind === kind), kind).toMatchObject({ match: true, source: { count: 1 } });
      expect(await copy.getDeliverySettings('backup-user-0')).toMatchObject({ forecastDigest: true });
      expect((await copy.listDeliveries('backup-user-0')).map((d) => [d.kind, d.ref, d.status])).toEqual([['digest', '2026-11-30', 'sent']]);
      expect(await copy.listAlertsByInstrument('revisions.PP.iocl')).toEqual([expect.objectContaining({ id: 'al_rev', kind: 'revision', crossings: 1, firedFor: 'iocl.PP.2026-11-17' })]);
      expect((await copy.listUnsentDeliveries('alert')).map((r) => r.ref)).toEqual(['al_rev#iocl.PP.2026-11-17']);
    } finally {
      await copy.close();
    }
  });

  it('restore refuses existing data without --force, and with --force moves it aside', { timeout: 300_000 }, async () => {
    const archive = join(root, 'quiet.tar.gz');
    // A folder this process never opened a store in (libSQL keeps a closed store's file open
    // until its statements are collected, and the guard would rightly see that).
    const target = join(root, 'restored-twice');
    expect((await restore(archive, target)).code).toBe(0);
    writeFileSync(join(target, 'sandbox-payment-secret'), 'changed since the backup');
    const refused = await restore(archive, target);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('already holds data');
    expect(readFileSync(join(target, 'sandbox-payment-secret'), 'utf8')).toBe('changed since the backup');

    const forced = await restore(archive, target, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(target, 'sandbox-payment-secret'), 'utf8')).toBe('a-local-secret');
    const aside = readdirSync(target).filter((name) => name.startsWith('.before-restore-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(target, aside[0]!, 'sandbox-payment-secret'), 'utf8')).toBe('changed since the backup');
  });

  it('restore refuses a DATA_DIR whose database a running process holds open, even with --force', { timeout: 300_000 }, async () => {
    // This test process holds the source store open, as a running site would.
    const refused = await restore(join(root, 'quiet.tar.gz'), source, '--force');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/running.*stop it first/);
  });

  it('restore refuses a damaged archive before it touches DATA_DIR', { timeout: 300_000 }, async () => {
    const unpacked = join(root, 'tampered');
    mkdirSync(unpacked, { recursive: true });
    await tar.extract({ file: join(root, 'quiet.tar.gz'), cwd: unpacked });
    writeFileSync(join(unpacked, 'files', 'sandbox-payment-secret'), 'tampered');
    const archive = join(root, 'tampered.tar.gz');
    await tar.create({ gzip: true, file: archive, cwd: unpacked }, readdirSync(unpacked));
    const target = join(root, 'restored-tampered');
    const refused = await restore(archive, target);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('does not match its checksum');
    expect(readdirSync(target).filter((name) => !name.startsWith('.'))).toEqual([]);
  });
});

describe('the Auth emulator\'s accounts (emulator mode)', () => {
  const emulators: AuthEmulator[] = [];
  afterAll(async () => {
    for (const emulator of emulators.splice(0)) await emulator.stop();
  });

  /** The emulator as npm start runs it for `dataDir` (its firebase.json there names its hub). */
  const emulatorFor = async (dataDir: string) => {
    const host = `127.0.0.1:${await freePortRun(3)}`;
    const emulator = await startAuthEmulator({ emulatorHost: host, projectId: 'demo-polyindex', dataDir });
    emulators.push(emulator);
    return { host, emulator };
  };
  const identity = (host: string, call: string, body: object) =>
    fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:${call}?key=demo-api-key`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('an account made while the emulator runs is in the backup and signs in on a fresh emulator after the restore', { timeout: 600_000 }, async () => {
    const dataDir = join(root, 'emulator-site');
    mkdirSync(dataDir, { recursive: true });
    await (await openStore({ url: sqliteUrlFor(dataDir) })).close();
    const { host, emulator } = await emulatorFor(dataDir);
    const email = `after-start-${randomUUID()}@example.test`;
    const made = await identity(host, 'signUp', { email, password: 'secret-pass', returnSecureToken: true });
    expect(made.status, await made.clone().text()).toBe(200);
    const { localId } = (await made.json()) as { localId: string };

    const archive = join(root, 'emulator.tar.gz');
    const result = await backup(archive, dataDir, { FIREBASE_AUTH_EMULATOR_HOST: host, FIREBASE_SERVICE_ACCOUNT: '' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('[backup] Auth emulator accounts: 1 (from the running emulator)');
    const manifest = await manifestOf(archive);
    expect(manifest.authAccounts).toEqual({ count: 1, from: 'running emulator' });
    // The account itself, in the file the next start imports (no export had happened before).
    const accounts = manifest.files.find((f) => f.path === 'auth-emulator/auth_export/accounts.json');
    expect(accounts).toBeDefined();
    let text = '';
    await tar.list({ file: archive, onReadEntry: (entry) => (entry.path === 'files/auth-emulator/auth_export/accounts.json' ? entry.on('data', (d: Buffer) => (text += d)) : entry.resume()) });
    expect(JSON.parse(text)).toMatchObject({ users: [{ localId, email }] });
    await emulator.stop();
    // Its export on exit is its own accounts, never another emulator's of the same project on this machine.
    const exportedOnExit = JSON.parse(readFileSync(join(dataDir, 'auth-emulator', 'auth_export', 'accounts.json'), 'utf8')) as { users: { email: string }[] };
    expect(exportedOnExit.users.map((u) => u.email)).toEqual([email]);

    const target = join(root, 'emulator-restored');
    const restored = await restore(archive, target);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('[restore] Auth emulator accounts: 1');
    const fresh = await emulatorFor(target);
    const signedIn = await identity(fresh.host, 'signInWithPassword', { email, password: 'secret-pass', returnSecureToken: true });
    expect(signedIn.status, await signedIn.clone().text()).toBe(200);
    expect(((await signedIn.json()) as { localId: string }).localId).toBe(localId);
  });

  it('a backup with the emulator stopped says its accounts are those of its last export', { timeout: 300_000 }, async () => {
    const archive = join(root, 'emulator-stopped.tar.gz');
    const host = `127.0.0.1:${await freePortRun(3)}`;
    const result = await backup(archive, source, { FIREBASE_AUTH_EMULATOR_HOST: host, FIREBASE_SERVICE_ACCOUNT: '' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`The Auth emulator (${host}) was not running: its accounts are those of its last export.`);
    expect((await manifestOf(archive)).authAccounts).toEqual({ count: 0, from: 'last export' });
  });
});
