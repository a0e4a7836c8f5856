// `npm run store:copy`: a seeded SQLite store copied to Firestore (the run's: Google's emulator,
// else the stand-in) and on to a fresh SQLite store, proven equal by counts and checksums on all three; merge, refusal and
// tamper detection; the script itself as a child process.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Firestore } from 'firebase-admin/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IsoDate } from '../../src/lib/dates.ts';
import { generateDemoData } from '../../src/lib/demoData.ts';
import { findListLine, producerPriceRecord } from '../../src/lib/producerPrices.ts';
import { cityRowsWithDemoRanges, offersWithDemoRanges, withDemoRanges } from '../../src/lib/demoRanges.ts';
import { supplierOf } from '../../src/lib/gst/invoice.ts';
import { creditNoteFor, invoiceIssue } from '../../src/server/invoices/issue.ts';
import { summarize } from '../../src/server/store/checksum.ts';
import { copyStore, summarizeKind, verifyKinds, type TransferSide } from '../../src/server/store/copy.ts';
import { openFirestore, type FirestoreHandle } from '../../src/server/store/firestore/database.ts';
import { firestoreStoreOver, openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { whatsappCodeHash } from '../../src/server/store/delivery.ts';
import { SQLITE_EXPORT_PAGE } from '../../src/server/store/sqlite/documents.ts';
import { TRANSFER_KINDS } from '../../src/server/store/transfer.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { freshProjectId, suiteFirestore } from '../support/firestore.ts';

const run = promisify(execFile);
const NODE = 'node_modules/.bin/node';
const NOW = new Date('2026-11-20T06:00:00.000Z');
const ADMIN = { uid: 'admin-1', email: 'Admin@Example.test' };

let root: string;
const opened: { close(): Promise<void> }[] = [];
let projects = 0;

const dirFor = (name: string) => join(root, name);
async function sqliteAt(name: string): Promise<Store> {
  const store = await openStore({ url: sqliteUrlFor(dirFor(name)) });
  opened.push(store);
  return store;
}
function firestoreAt(projectId = freshProjectId(`copy${++projects}`)): FirestoreHandle & { projectId: string } {
  const handle = openFirestore({ projectId, emulatorHost: suiteFirestore().host });
  opened.push(handle);
  return { ...handle, projectId };
}

/** The Firestore side of a copy: every kind in Firestore. */
const firestoreSide = (db: Firestore): TransferSide => firestoreStoreOver(db);

async function summaries(side: TransferSide): Promise<Record<string, { count: number; checksum: string }>> {
  const out: Record<string, { count: number; checksum: string }> = {};
  for (const kind of TRANSFER_KINDS) out[kind] = await summarizeKind(side, kind);
  return out;
}

const user = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid,
  displayName: `User ${uid}`,
  email: `${uid}@Example.test`,
  phone: null,
  photoURL: null,
  role: 'user',
  subscribed: false,
  createdAt: '01-11-2026',
  ...extra,
});

/** The first of `rows` for each key, in order. */
function firstOfEach<T>(rows: readonly T[], key: (row: T) => string): T[] {
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(key(row)) && Boolean(seen.add(key(row))));
}
const quarterOf = (date: string) => `${date.slice(0, 4)}Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3)}`;

/**
 * The demo prices thinned out: every series, city and country over the whole history, but a
 * point per series and quarter, every other city-wise revision day and an offer per country and
 * quarter. Still more than one export page of every price kind on both sides (points: 2,756
 * rows, 13 year documents a series; city rows: about 6,000, 52 date documents a city; offers:
 * 52 month documents a country), a tenth of the full demo data: the in-memory Firestore stand-in
 * scans a collection for each page, so the full data made this file take minutes on a busy machine.
 */
async function seedThinDemoPrices(store: Store, today: IsoDate): Promise<void> {
  const data = generateDemoData({ today });
  await store.upsertSeries(data.series);
  const revisionDays = [...new Set(data.citySheets.map((row) => row.date))].toSorted().filter((_, i) => i % 2 === 0);
  const kept = new Set(revisionDays);
  // Ranges where the basis quotes them, as the demo seed writes them (src/lib/demoRanges.ts).
  await store.upsertCityPrices(cityRowsWithDemoRanges(data.citySheets.filter((row) => kept.has(row.date))));
  await store.upsertOffers(offersWithDemoRanges(firstOfEach(data.offers, (offer) => `${offer.country} ${quarterOf(offer.date)}`)));
  const rows = data.series.flatMap((series) => firstOfEach(withDemoRanges(series, data.points.get(series.id) ?? []), (p) => quarterOf(p.date)).map((p) => ({ seriesId: series.id, ...p })));
  await store.upsertCustomsRates(data.customsRates);
  await store.upsertPoints(rows);
}

/** Users (unknown fields included), orders in every state, events, audit entries, banners, demo prices. */
async function seedSource(store: Store): Promise<void> {
  await seedThinDemoPrices(store, '2026-11-20');
  // One image larger than a Firestore chunk (512 KiB), so it spans documents there.
  const bytes = new Uint8Array(700 * 1024).map((_, i) => (i * 31) % 251);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  await store.putBannerImage({ name: 'b0a1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d.png', contentType: 'image/png', bytes });
  await store.createUser(user('u-plain'));
  await store.createUser(user('u-legacy', { phone: '+91 98200 00000', legacyScore: 4.5, tags: ['a', 'b'], address: { city: 'Mumbai', pin: 400001, geo: null } }));
  await store.createUser(user('u-buyer', { role: 'admin', plan: null, ['field with space']: true }));
  // Delivery: settings with a verified number, an alert that fired once, a sent-log entry whose key holds a slash.
  await store.saveDeliverySettings({ uid: 'u-plain', series: ['fx.usdinr', 'city.mumbai.ppRaffia'], email: true, whatsapp: false, hour: 9, whatsappNumber: null, whatsappVerifiedAt: null, pending: { number: '919820012345', codeHash: whatsappCodeHash('u-plain', '919820012345', '123456'), expiresAt: '2026-11-20T06:10:00.000Z', attempts: 0 }, updatedAt: '2026-11-20T06:00:00.000Z' });
  await store.tryWhatsAppCode({ uid: 'u-plain', code: '123456', now: new Date('2026-11-20T06:01:00.000Z'), maxAttempts: 5 });
  // The update's language (Hindi): the copies' checksums cover it.
  // And the weekly forecast digest, with its sent-log record.
  await store.saveDeliverySettings({ uid: 'u-legacy', series: ['fx.usdinr'], email: true, whatsapp: false, hour: 8, language: 'hi', forecastDigest: true, whatsappNumber: null, whatsappVerifiedAt: null, pending: null, updatedAt: '2026-11-20T06:00:00.000Z' });
  await store.createAlert({ id: 'al_copy', uid: 'u-plain', instrument: 'fx.usdinr', kind: 'above', value: 90.5, channels: ['email', 'whatsapp'], reached: true, firedFor: null, crossings: 1, createdAt: '2026-11-20T06:02:00.000Z', updatedAt: '2026-11-20T06:03:00.000Z' });
  // A producer revision alert (issue 20): an alert whose instrument is a product's revisions.
  await store.createAlert({ id: 'al_copy_rev', uid: 'u-plain', instrument: 'revisions.HDPE.gail', kind: 'revision', value: 0, channels: ['email'], reached: null, firedFor: 'gail.HDPE.2026-11-19', crossings: 1, createdAt: '2026-11-19T06:02:00.000Z', updatedAt: '2026-11-20T06:03:00.000Z' });
  const claim = await store.claimDelivery({ uid: 'u-plain', kind: 'inbound', ref: 'wamid.HBg/+x==', channel: 'none' }, new Date('2026-11-20T06:04:00.000Z'));
  await store.completeDelivery(claim!, new Date('2026-11-20T06:04:01.000Z'));
  const digest = await store.claimDelivery({ uid: 'u-legacy', kind: 'digest', ref: '2026-11-30', channel: 'email' }, new Date('2026-11-30T04:00:00.000Z'));
  await store.completeDelivery(digest!, new Date('2026-11-30T04:00:01.000Z'));
  await store.createUser(user('u-late'));
  const order = (id: string, uid: string) => ({ id, uid, plan: 'Premium', amount: 1_500_000, currency: 'INR', receipt: `r_${id}` });
  await store.createOrder(order('order_created', 'u-plain'), NOW);
  await store.createOrder(order('order_paid', 'u-buyer'), NOW);
  await store.createOrder(order('order_failed', 'u-buyer'), NOW);
  // The buyer's billing details, the invoice the grant issues (and its counter), a refund's credit note.
  await store.saveBillingDetails({ uid: 'u-buyer', legalName: 'Buyer Polymers LLP', address: ['12 Ring Road', 'Surat'], pin: '395002', stateCode: '24', gstin: null, updatedAt: NOW.toISOString() });
  const supplier = supplierOf({ legalName: 'PolyIndex Market Data Private Limited', address: '402 Trade Centre | Mumbai 400051', gstin: '27AABCP1234F1ZU' });
  if (!supplier.ok) throw new Error(supplier.message);
  await store.grantOrder({ orderId: 'order_paid', paymentId: 'pay_1', signature: 'sig', now: NOW, durationDays: 365, event: { id: 'evt_paid', type: 'payment.captured' }, invoice: invoiceIssue(supplier.value, NOW) });
  const refundDay = NOW.toISOString().slice(0, 10);
  await store.issueCreditNote({ refundId: 'rfnd_1', paymentId: 'pay_1', amountPaise: 100_000, date: refundDay, now: NOW, document: creditNoteFor(100_000, refundDay, 'Refund') });
  await store.failOrder({ orderId: 'order_failed', paymentId: 'pay_2', reason: 'card declined', now: NOW, event: { id: 'evt_failed', type: 'payment.failed' } });
  await store.recordEvent({ id: 'evt_refund', type: 'refund.created' }, NOW);
  // Producer list prices: a list and its revision (the revision itself is computed, not stored).
  const raffia = findListLine('reliance.ppRaffia.jamnagar')!;
  const entered = { at: NOW, by: ADMIN.uid };
  await store.importRecords('producerPrices', [producerPriceRecord(raffia, '2026-11-10', 104.5, entered), producerPriceRecord(raffia, '2026-11-17', 106, entered)]);
  // Forecasts: a desk call (audited: one more entry) would change the audit count; a baseline and its score.
  const forecast = { id: 'baseline.fx.usdinr.1w.2026-11-13', seriesId: 'fx.usdinr', horizon: '1w' as const, direction: 'flat' as const, low: 88.1, high: 88.9, rationale: 'ETS', by: { kind: 'baseline' as const, method: 'ets' as const }, publishedAt: '2026-11-13T12:30:00.000Z', baseDate: '2026-11-13', baseValue: 88.5, endDate: '2026-11-20', flatBandPct: 0.3, supersedes: null };
  await store.addForecasts([forecast]);
  await store.putScores([{ forecastId: forecast.id, seriesId: 'fx.usdinr', revision: 1, scoredAt: NOW.toISOString(), actual: { date: '2026-11-20', value: 88.6 }, outcome: { insideRange: true, actualDirection: 'flat', directionRight: true, absPctError: 0.11 }, earlier: [] }]);
  await store.saveView({ uid: 'u-buyer', name: 'Naphtha vs PP', query: 's=feedstock.naphtha.japan,historical.ppRaffia.mumbai&range=5Y&unit=inr_kg', now: NOW });
  // A data-feed key (its hash only), its meter and a day of use.
  const feedKey = { id: 'copykey00001', ownerUid: 'u-buyer', name: 'Purchase sheet', hash: 'ab'.repeat(32), createdAt: NOW.toISOString(), urlKey: true, ratePerMinute: 60, monthlyQuota: 50_000 };
  await store.createApiKey(feedKey, ADMIN);
  // A team seat held on a Platinum plan (imported: an invitation through the store would add audit entries).
  await store.importRecords('seats', [{ id: 'copyseat00000001', ownerUid: 'u-buyer', email: 'u-late@example.test', status: 'held', tokenHash: null, invitedAt: NOW.toISOString(), inviteExpiresAt: NOW.toISOString(), holderUid: 'u-late', acceptedAt: NOW.toISOString() }]);
  await store.meterApiKey(feedKey, NOW);
  await store.replaceBanners([
    { id: 'b-one', title: 'One', subtitle: 'first', href: '/one', image: '/img/one.webp', alt: 'one', order: 1 },
    { id: 'b-two', title: 'Two', subtitle: 'second', href: '/two', image: '/img/two.webp', alt: 'two', order: 2 },
  ]);
  await store.adminAddBanner({ banner: { id: 'b-three', title: 'Three', subtitle: 'third', href: '/three', image: '/img/3.webp', alt: 'three' }, actor: ADMIN, now: NOW });
  await store.adminUpdateUser({ uid: 'u-plain', change: () => ({ ok: true, patch: { role: 'admin' } }), actor: ADMIN, action: 'user.role', now: NOW });
  await store.adminUpdateUser({ uid: 'u-legacy', change: () => ({ ok: true, patch: { subscribed: true, expiresAt: '2027-11-20T06:00:00.000Z' } }), actor: ADMIN, action: 'user.grant', now: NOW });
  // Posts: one published under a slug it moved to, one gated draft with a cover (its image
  // travels with the images).
  await store.putBannerImage({ name: `${COVER}-1200.webp`, contentType: 'image/webp', bytes: new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 7, 7]) });
  const at = '2026-11-19T04:30:00.000Z';
  const base = { type: 'plant-news' as const, summary: 'A summary.', body: 'Body with **markdown**.', author: 'PolyIndex Desk', authorUid: null, tags: ['PP'], createdAt: at, updatedAt: at, deletedAt: null };
  await store.seedPosts([
    { ...base, id: 'post-moved', slug: 'post-moved-now', oldSlugs: ['post-moved-before'], title: 'Moved post', cover: null, access: 'public', status: 'published', publishAt: at },
    { ...base, id: 'post-draft', slug: 'post-draft', oldSlugs: [], title: 'Gated draft', cover: { image: COVER, alt: 'A cover', width: 1200, height: 630 }, access: 'full', status: 'draft', publishAt: null },
  ]);
}

const COVER = '5b1f0f3e-2a7c-4d1e-9c5a-7f3e2d1c0b9a';

let source: Store;
let sourceSums: Record<string, { count: number; checksum: string }>;
let fsA: ReturnType<typeof firestoreAt>;
let fsSide: TransferSide;
let back: Store;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'polyindex-copy-'));
  source = await sqliteAt('source');
  await seedSource(source);
  sourceSums = await summaries(source);
  fsA = firestoreAt();
  fsSide = firestoreSide(fsA.db);
  back = await sqliteAt('back');
}, 120_000);

afterAll(async () => {
  for (const handle of opened.reverse()) await handle.close().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});

describe('the seeded source', () => {
  it('holds records of every kind', () => {
    for (const kind of TRANSFER_KINDS) expect(sourceSums[kind]!.count, kind).toBeGreaterThan(0);
    expect(sourceSums['orders']!.count).toBe(3);
    expect(sourceSums['audit']!.count).toBe(4);
    // Thinned, but the copies still page (seedThinDemoPrices).
    for (const kind of ['points', 'cityPrices'] as const) expect(sourceSums[kind]!.count, kind).toBeGreaterThan(SQLITE_EXPORT_PAGE);
  });
});

describe('sqlite → firestore → sqlite', () => {
  it('copies every kind and proves it', async () => {
    const result = await copyStore({ source, target: fsSide });
    expect(result.outcome).toBe('copied');
    if (result.outcome !== 'copied') return;
    expect(result.ok).toBe(true);
    for (const report of result.kinds) expect(report.written, report.kind).toBe(sourceSums[report.kind]!.count);
    expect(await summaries(fsSide)).toEqual(sourceSums);
  }, 300_000);

  it('keeps states, ids, unknown fields and creation order on Firestore', async () => {
    const users = firestoreStoreOver(fsA.db);
    const payments = firestoreStoreOver(fsA.db);
    expect(await users.findUserBy('uid', 'u-legacy')).toEqual(await source.findUserBy('uid', 'u-legacy'));
    // The weekly forecast digest's option and its sent-log record.
    expect(await users.getDeliverySettings('u-legacy')).toMatchObject({ forecastDigest: true, language: 'hi' });
    expect(await users.listDeliveries('u-legacy')).toEqual(await source.listDeliveries('u-legacy'));
    expect((await users.listDeliveries('u-legacy')).map((d) => [d.kind, d.ref])).toEqual([['digest', '2026-11-30']]);
    expect(await users.findUserBy('email', 'U-BUYER@example.test')).toMatchObject({ plan: 'Premium', subscribed: true, 'field with space': true });
    expect((await users.searchUsers('', 10)).map((u) => u.uid)).toEqual((await source.searchUsers('', 10)).map((u) => u.uid));
    for (const id of ['order_created', 'order_paid', 'order_failed']) expect(await payments.findOrder(id)).toEqual(await source.findOrder(id));
    // Ranges (low, high, the mid) and single values alike.
    const prices = firestoreStoreOver(fsA.db);
    const cif = await source.points('historical.ppRaffia.cif-ns');
    expect(cif.length).toBeGreaterThan(0);
    expect(cif.every((p) => p.low !== undefined && p.high !== undefined && p.low < p.value && p.value < p.high)).toBe(true);
    expect(await prices.points('historical.ppRaffia.cif-ns')).toEqual(cif);
    expect((await source.points('fx.usdinr')).every((p) => p.low === undefined)).toBe(true);
    expect(await prices.points('fx.usdinr')).toEqual(await source.points('fx.usdinr'));
    expect((await source.latestCitySheet('pune')).every((r) => r.low !== undefined)).toBe(true);
    expect(await prices.latestCitySheet('pune')).toEqual(await source.latestCitySheet('pune'));
    // Offers: every cell a range, the mids in data, the ends on the Firestore entries.
    const latestIndia = (await source.latestOfferMonth('India'))!;
    const india = await source.offersInMonth('India', latestIndia.year, latestIndia.month);
    expect(india.length).toBeGreaterThan(0);
    expect(india.every((o) => o.ranges?.['PP']?.['Raffia'] !== undefined)).toBe(true);
    expect(await prices.offersInMonth('India', latestIndia.year, latestIndia.month)).toEqual(india);
    // Posts keep their old slugs (the 301s), search index and cover image.
    const posts = firestoreStoreOver(fsA.db);
    expect(await posts.findPostBySlug('post-moved-before')).toMatchObject({ current: false, post: { id: 'post-moved', slug: 'post-moved-now' } });
    expect(await posts.getPost('post-draft')).toEqual(await source.getPost('post-draft'));
    expect((await posts.searchLivePosts('markdown', NOW)).map((p) => p.id)).toEqual(['post-moved']);
    expect((await firestoreStoreOver(fsA.db).getBannerImage(`${COVER}-1200.webp`))?.contentType).toBe('image/webp');
    expect(await payments.countOrdersByStatus()).toEqual({ created: 1, paid: 1, failed: 1 });
    expect(await payments.recordEvent({ id: 'evt_paid', type: 'payment.captured' }, NOW)).toBe(false);
    // A producer revision alert is found by its product's revisions, as the evaluation lists it.
    expect(await firestoreStoreOver(fsA.db).listAlertsByInstrument('revisions.HDPE.gail')).toEqual(await source.listAlertsByInstrument('revisions.HDPE.gail'));
    expect((await source.listAlertsByInstrument('revisions.HDPE.gail')).map((a) => a.id)).toEqual(['al_copy_rev']);
  });

  it('continues audit ids after the imported ones', async () => {
    const audit = firestoreStoreOver(fsA.db);
    expect((await audit.listAudit()).entries).toEqual((await source.listAudit()).entries);
    const updated = await audit.adminUpdateUser({ uid: 'u-late', change: () => ({ ok: true, patch: { role: 'admin' } }), actor: ADMIN, action: 'user.role', now: NOW });
    expect(updated.kind === 'updated' && updated.entry.id).toBe(5);
    // Put back, so Firestore mirrors the source again (the entry stays: remove it by copy below).
    await fsSide.importRecords('users', [(await source.findUserBy('uid', 'u-late'))!]);
  });

  it('copies Firestore on into a fresh SQLite store, equal to the source', async () => {
    // The extra audit entry made on Firestore above: the copy back must carry it too.
    const result = await copyStore({ source: fsSide, target: back });
    expect(result.outcome === 'copied' && result.ok).toBe(true);
    const firestoreSums = await summaries(fsSide);
    expect(await summaries(back)).toEqual(firestoreSums);
    for (const kind of TRANSFER_KINDS.filter((k) => k !== 'audit')) expect(firestoreSums[kind], kind).toEqual(sourceSums[kind]);
    expect(firestoreSums['audit']!.count).toBe(5);
    expect((await back.searchUsers('', 10)).map((u) => u.uid)).toEqual((await source.searchUsers('', 10)).map((u) => u.uid));
    const next = await back.adminUpdateUser({ uid: 'u-late', change: () => ({ ok: true, patch: { role: 'admin' } }), actor: ADMIN, action: 'user.role', now: NOW });
    expect(next.kind === 'updated' && next.entry.id).toBe(6);
  }, 300_000);

  it('a second copy with merge changes nothing, not even the hidden order keys', async () => {
    const seqs = async () => (await fsA.db.collection('users').get()).docs.map((doc) => [doc.id, doc.get('_seq')]).toSorted();
    const before = await seqs();
    const fresh = firestoreAt();
    const side = firestoreSide(fresh.db);
    expect((await copyStore({ source, target: side })).outcome).toBe('copied');
    const sums = await summaries(side);
    const again = await copyStore({ source, target: side, merge: true });
    expect(again.outcome === 'copied' && again.ok).toBe(true);
    expect(await summaries(side)).toEqual(sums);
    expect(sums).toEqual(sourceSums);
    // And on the store copied earlier: its order keys survive a merge copy.
    await copyStore({ source: fsSide, target: fsSide, merge: true, kinds: ['users'] });
    expect(await seqs()).toEqual(before);
  }, 300_000);

  it('refuses a non-empty target without --merge and writes nothing', async () => {
    const fresh = firestoreAt();
    await firestoreStoreOver(fresh.db).createUser(user('someone-else'));
    const side = firestoreSide(fresh.db);
    const before = await summaries(side);
    const result = await copyStore({ source, target: side });
    expect(result).toEqual({ outcome: 'refused', found: [{ kind: 'users', atLeast: 1 }] });
    expect(await summaries(side)).toEqual(before);
  });

  it('a tampered target fails the verification, for that kind only', async () => {
    await fsA.db.collection('orders').doc('order_paid').update({ amount: 1 });
    const reports = await verifyKinds(source, fsSide, ['users', 'orders', 'paymentEvents']);
    expect(reports.map((r) => [r.kind, r.match])).toEqual([['users', true], ['orders', false], ['paymentEvents', true]]);
    // A copy that loses a record on the way is caught by its own verification.
    const fresh = await sqliteAt('lossy');
    const lossy: TransferSide = {
      exportRecords: (kind) => fresh.exportRecords(kind),
      importRecords: (kind, records) => fresh.importRecords(kind, kind === 'paymentEvents' ? records.slice(1) : records),
    };
    const result = await copyStore({ source, target: lossy, kinds: ['users', 'paymentEvents'] });
    expect(result.outcome === 'copied' && result.kinds.map((r) => [r.kind, r.match])).toEqual([['users', true], ['paymentEvents', false]]);
  });
});

describe('Firestore export', () => {
  it('reads documents the paging field does not reach (legacy users without _seq)', async () => {
    const fresh = firestoreAt();
    await fresh.db.collection('users').doc('legacy-1').set({ uid: 'legacy-1', email: 'old@example.test', role: 'user', subscribed: false, createdAt: '01-01-2019', displayName: null, phone: null, photoURL: null });
    await firestoreStoreOver(fresh.db).createUser(user('new-1'));
    const transfer = firestoreStoreOver(fresh.db);
    const uids: string[] = [];
    for await (const page of transfer.exportRecords('users')) uids.push(...page.map((u) => u.uid));
    expect(uids.toSorted()).toEqual(['legacy-1', 'new-1']);
  });

  it('pages through more documents than a page holds and replaces stale fields on import', async () => {
    const fresh = firestoreAt();
    const transfer = firestoreStoreOver(fresh.db);
    const events = Array.from({ length: 1234 }, (_, i) => ({ id: `evt_${String(i).padStart(5, '0')}`, type: 'payment.captured', receivedAt: NOW.toISOString() }));
    expect(await transfer.importRecords('paymentEvents', events)).toBe(1234);
    const got: string[] = [];
    for await (const page of transfer.exportRecords('paymentEvents')) got.push(...page.map((e) => e.id));
    expect(got).toEqual(events.map((e) => e.id));
    await transfer.importRecords('users', [user('x', { stale: 'old value' })]);
    await transfer.importRecords('users', [user('x')]);
    expect(await firestoreStoreOver(fresh.db).findUserBy('uid', 'x')).toEqual(user('x'));
    await expect(transfer.importRecords('orders', [{ ...(await source.findOrder('order_paid'))!, id: 'a/b' }])).rejects.toThrow(/document id/);
  }, 60_000);
});

describe('npm run store:copy (the script, a child process)', () => {
  const env = (extra: Record<string, string>) => {
    const base: Record<string, string | undefined> = { ...process.env, METADATA_SERVER_DETECTION: 'none', ...extra };
    delete base['LIBSQL_URL'];
    return base;
  };
  const script = async (args: string[], extra: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await run(NODE, ['scripts/store-copy.ts', ...args], { env: env(extra), timeout: 240_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  };

  it('copies SQLite to SQLite, every kind, and prints the proof', async () => {
    const target = dirFor('script-target');
    const result = await script(['--from', 'sqlite', '--to', `sqlite:${target}`], { DATA_DIR: dirFor('source') });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const kind of TRANSFER_KINDS) expect(result.stdout).toMatch(new RegExp(`^${kind} +${sourceSums[kind]!.count} +${sourceSums[kind]!.count} +${sourceSums[kind]!.checksum} +yes$`, 'm'));
    expect(result.stdout).toContain('verified');
    const copied = await sqliteAt('script-target');
    expect(await summaries(copied)).toEqual(sourceSums);
  }, 300_000);

  it('a dry run counts the source only; --only restricts the kinds', async () => {
    const result = await script(['--from', 'sqlite', '--dry-run', '--only', 'banners,users'], { DATA_DIR: dirFor('source') });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^users +${sourceSums['users']!.count} +- +${sourceSums['users']!.checksum}`, 'm'));
    expect(result.stdout).toMatch(/^banners +3 +-/m);
    expect(result.stdout).not.toMatch(/^points/m);
  });

  it('refuses a non-empty target without --merge (exit 2, nothing written); --merge changes nothing', async () => {
    const target = dirFor('script-busy');
    const busy = await sqliteAt('script-busy');
    await busy.createUser(user('already-here'));
    const before = await summaries(busy);
    const refused = await script(['--from', `sqlite:${dirFor('source')}`, '--to', `sqlite:${target}`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refused: the target already holds users \(at least 1 records\)\. Nothing was written/);
    expect(await summaries(busy)).toEqual(before);

    // Into an identical copy: nothing changes, verified.
    const same = await script(['--from', `sqlite:${dirFor('source')}`, '--to', `sqlite:${dirFor('script-target')}`, '--merge']);
    expect(same.code).toBe(0);
    // Into the busy store: its extra user makes the proof fail (exit 1).
    const merged = await script(['--from', `sqlite:${dirFor('source')}`, '--to', `sqlite:${target}`, '--merge', '--only', 'users']);
    expect(merged.code).toBe(1);
    expect(merged.stderr).toContain('VERIFICATION FAILED for users');
    expect(merged.stdout).toMatch(new RegExp(`^users +${sourceSums['users']!.count} +${sourceSums['users']!.count + 1} .* NO$`, 'm'));
  }, 300_000);

  it('rejects the same store on both sides and unknown kinds', async () => {
    expect((await script(['--from', 'sqlite', '--to', `sqlite:${dirFor('source')}`], { DATA_DIR: dirFor('source') })).code).toBe(2);
    expect((await script(['--from', 'sqlite', '--to', 'sqlite:/x', '--only', 'nope'])).stderr).toContain('unknown kind(s) nope');
  });

  it('copies sqlite → firestore → sqlite through the script', async () => {
    const projectId = freshProjectId('copy-script');
    const there = await script(['--from', 'sqlite', '--to', 'firestore'], { DATA_DIR: dirFor('source'), FIRESTORE_EMULATOR_HOST: suiteFirestore().host, FIREBASE_PROJECT_ID: projectId });
    expect(there.code, there.stderr).toBe(0);
    const home = await script(['--from', 'firestore', '--to', 'sqlite'], { DATA_DIR: dirFor('script-back'), FIRESTORE_EMULATOR_HOST: suiteFirestore().host, FIREBASE_PROJECT_ID: projectId });
    expect(home.code, home.stderr).toBe(0);
    expect(await summaries(await sqliteAt('script-back'))).toEqual(sourceSums);
  }, 480_000);
});

describe('checksums', () => {
  it('are the same computed at once or page by page', async () => {
    const all: object[] = [];
    for await (const page of source.exportRecords('cityPrices')) all.push(...page);
    expect(summarize('cityPrices', all)).toEqual(sourceSums['cityPrices']);
  });
});
