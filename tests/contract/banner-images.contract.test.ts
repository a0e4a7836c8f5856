/**
 * The `bannerImages` part of the Store port on both adapters: put / get / delete round-trip the
 * bytes (one chunk and several: 1.5 MiB and the 2 MiB limit), a put replaces, bad images are
 * refused before anything is written, damaged bytes read as missing (logged), and the transfer
 * functions copy images from one adapter to the other and back unchanged.
 *
 * SQLite through openStore; Firestore through openFirestore + the adapter, on the run's
 * Firestore (tests/setup/firestore.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@libsql/client';
import type { Firestore } from 'firebase-admin/firestore';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_BANNER_BYTES } from '../../src/lib/admin/bannerImage.ts';
import { sha256Hex, type BannerImage, type BannerImageRecord, type BannerImageStore } from '../../src/server/store/bannerImages.ts';
import { BANNER_IMAGE_CHUNK, BANNER_IMAGES, createFirestoreBannerImageStore, exportBannerImages as exportFirestore, importBannerImages as importFirestore } from '../../src/server/store/firestore/bannerImages.ts';
import { openFirestore, type FirestoreHandle } from '../../src/server/store/firestore/database.ts';
import { openStore, type Store } from '../../src/server/store/index.ts';
import { exportBannerImages as exportSqlite, importBannerImages as importSqlite } from '../../src/server/store/sqlite/bannerImages.ts';
import { openSqlite } from '../../src/server/store/sqlite/database.ts';
import { freshProjectId, suiteFirestore } from '../support/firestore.ts';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG-signed image of `size` bytes whose content depends on `seed` (so copies are told apart). */
function png(size: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed * 17 + (i >> 8)) & 0xff;
  bytes.set(PNG_SIGNATURE.slice(0, Math.min(size, PNG_SIGNATURE.length)));
  return bytes;
}
const nameOf = (ext = 'png'): string => `${randomUUID()}.${ext}`;
const image = (size: number, seed = 1, ext = 'png'): BannerImage => ({ name: nameOf(ext), contentType: ext === 'jpg' ? 'image/jpeg' : `image/${ext}`, bytes: png(size, seed) });

interface Subject {
  readonly store: BannerImageStore;
  exportAll(): Promise<BannerImageRecord[]>;
  importAll(records: readonly BannerImageRecord[]): Promise<number>;
  /** Overwrites stored bytes behind the adapter's back. */
  damage(name: string): Promise<void>;
}

const collect = async (pages: AsyncIterable<readonly BannerImageRecord[]>): Promise<BannerImageRecord[]> => {
  const all: BannerImageRecord[] = [];
  for await (const page of pages) {
    expect(page.length).toBeGreaterThan(0);
    expect(page.length).toBeLessThanOrEqual(3);
    all.push(...page);
  }
  return all;
};

let dir: string;
let sqliteStore: Store;
let sqliteClient: Client;
let firestore: FirestoreHandle;
const subjects = new Map<string, Subject>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'banner-images-'));
  const url = `file:${join(dir, 'store.db')}`;
  sqliteStore = await openStore({ url });
  sqliteClient = await openSqlite({ url });
  subjects.set('sqlite', {
    store: sqliteStore,
    exportAll: () => collect(exportSqlite(sqliteClient, 3)),
    importAll: (records) => importSqlite(sqliteClient, records),
    async damage(name) {
      await sqliteClient.execute({ sql: 'UPDATE banner_images SET bytes = ? WHERE name = ?', args: [new Uint8Array([1, 2, 3]), name] });
    },
  });

  firestore = openFirestore({ projectId: freshProjectId('banner-images'), emulatorHost: suiteFirestore().host });
  const db: Firestore = firestore.db;
  subjects.set('firestore', {
    store: createFirestoreBannerImageStore(db),
    exportAll: () => collect(exportFirestore(db, 3)),
    importAll: (records) => importFirestore(db, records),
    async damage(name) {
      await db.doc(`${BANNER_IMAGES}/${name}/chunks/000`).set({ index: 0, data: Buffer.from([1, 2, 3]) });
    },
  });
});

afterAll(async () => {
  await sqliteStore?.close();
  sqliteClient?.close();
  await firestore?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.each(['sqlite', 'firestore'])('banner images on %s', (kind) => {
  const subject = (): Subject => subjects.get(kind)!;

  it('puts, gets and deletes an image (bytes, type and sha256 as stored)', async () => {
    const { store } = subject();
    const small = image(100, 1, 'webp');
    expect(await store.getBannerImage(small.name)).toBeNull();
    await store.putBannerImage(small);
    const got = await store.getBannerImage(small.name);
    expect(got).toMatchObject({ name: small.name, contentType: 'image/webp', sha256: sha256Hex(small.bytes) });
    expect(Buffer.from(got!.bytes).equals(Buffer.from(small.bytes))).toBe(true);
    expect(await store.deleteBannerImage(small.name)).toBe(true);
    expect(await store.getBannerImage(small.name)).toBeNull();
    expect(await store.deleteBannerImage(small.name)).toBe(false);
  });

  it.each([
    ['1.5 MiB (several chunks)', 1.5 * 1024 * 1024],
    ['exactly one chunk', 512 * 1024],
    ['one byte over a chunk', 512 * 1024 + 1],
    ['the 2 MiB limit', MAX_BANNER_BYTES],
  ])('round-trips an image of %s', async (_label, size) => {
    const { store } = subject();
    const big = image(size, 7, 'jpg');
    await store.putBannerImage(big);
    const got = await store.getBannerImage(big.name);
    expect(got?.bytes.byteLength).toBe(size);
    expect(got?.sha256).toBe(sha256Hex(big.bytes));
    expect(Buffer.from(got!.bytes).equals(Buffer.from(big.bytes))).toBe(true);
    expect(await store.deleteBannerImage(big.name)).toBe(true);
    expect(await store.getBannerImage(big.name)).toBeNull();
  });

  it('replaces an image of the same name, a large one by a small one and back', async () => {
    const { store } = subject();
    const big = image(1.5 * 1024 * 1024, 2);
    const small = { ...big, bytes: png(300, 3) };
    await store.putBannerImage(big);
    await store.putBannerImage(small);
    expect((await store.getBannerImage(big.name))?.sha256).toBe(sha256Hex(small.bytes));
    await store.putBannerImage(big);
    expect((await store.getBannerImage(big.name))?.sha256).toBe(sha256Hex(big.bytes));
    await store.putBannerImage(big); // the same again: nothing changes
    expect((await store.getBannerImage(big.name))?.sha256).toBe(sha256Hex(big.bytes));
    expect(await store.deleteBannerImage(big.name)).toBe(true);
  });

  it.each([
    ['a path as name', { name: '../polyindex.db', contentType: 'image/png', bytes: png(10) }],
    ['a name with a slash', { name: `a/${nameOf()}`, contentType: 'image/png', bytes: png(10) }],
    ['an upper-case name', { name: nameOf().toUpperCase(), contentType: 'image/png', bytes: png(10) }],
    ['a .gif name', { name: nameOf('gif'), contentType: 'image/png', bytes: png(10) }],
    ['an SVG type', { name: nameOf(), contentType: 'image/svg+xml', bytes: png(10) }],
    ['no bytes', { name: nameOf(), contentType: 'image/png', bytes: new Uint8Array(0) }],
    ['more than 2 MiB', { name: nameOf(), contentType: 'image/png', bytes: png(MAX_BANNER_BYTES + 1) }],
  ])('refuses %s (RangeError, nothing stored)', async (_label, bad) => {
    const { store } = subject();
    await expect(store.putBannerImage(bad)).rejects.toThrow(RangeError);
    expect(await store.getBannerImage(bad.name)).toBeNull();
  });

  it('answers null / false for names it cannot hold', async () => {
    const { store } = subject();
    for (const name of ['', '..', '../x.png', 'a/b.png', '__x__', 'x.svg']) {
      expect(await store.getBannerImage(name)).toBeNull();
      expect(await store.deleteBannerImage(name)).toBe(false);
    }
  });

  it('reads damaged bytes as missing, and logs it', async () => {
    const { store, damage } = subject();
    const hurt = image(1.5 * 1024 * 1024, 4);
    await store.putBannerImage(hurt);
    await damage(hurt.name);
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await store.getBannerImage(hurt.name)).toBeNull();
      expect(log).toHaveBeenCalledWith(expect.stringContaining(hurt.name));
    } finally {
      log.mockRestore();
    }
    expect(await store.deleteBannerImage(hurt.name)).toBe(true);
  });

  it('imports only after checking every record (a bad one: RangeError, nothing written)', async () => {
    const { store, importAll } = subject();
    const good = image(200, 5);
    const record = { name: good.name, contentType: good.contentType, bytesBase64: Buffer.from(good.bytes).toString('base64') };
    for (const bad of [
      { ...record, name: nameOf(), bytesBase64: 'not base64!' },
      { ...record, name: nameOf(), bytesBase64: '' },
      { ...record, name: 'x/../y.png' },
      { ...record, name: nameOf(), contentType: 'text/html' },
    ]) {
      await expect(importAll([record, bad])).rejects.toThrow(RangeError);
      expect(await store.getBannerImage(good.name)).toBeNull();
    }
    expect(await importAll([])).toBe(0);
  });
});

describe('banner images in Firestore documents', () => {
  it('keep a head and chunks of at most 512 KiB; a replacement leaves no chunk of the old image', async () => {
    const { store } = subjects.get('firestore')!;
    const db = firestore.db;
    const big = image(1.5 * 1024 * 1024 + 10, 21);
    await store.putBannerImage(big);
    const head = (await db.doc(`${BANNER_IMAGES}/${big.name}`).get()).data();
    expect(head).toEqual({ name: big.name, contentType: 'image/png', size: big.bytes.byteLength, sha256: sha256Hex(big.bytes), chunkCount: 4 });
    const chunks = (await db.collection(`${BANNER_IMAGES}/${big.name}/chunks`).get()).docs;
    expect(chunks.map((c) => [c.id, c.get('index')])).toEqual([['000', 0], ['001', 1], ['002', 2], ['003', 3]]);
    expect(chunks.map((c) => (c.get('data') as Uint8Array).byteLength)).toEqual([BANNER_IMAGE_CHUNK, BANNER_IMAGE_CHUNK, BANNER_IMAGE_CHUNK, 10]);

    await store.putBannerImage({ ...big, bytes: png(50, 22) });
    expect((await db.collection(`${BANNER_IMAGES}/${big.name}/chunks`).get()).docs.map((c) => c.id)).toEqual(['000']);
    expect(await store.deleteBannerImage(big.name)).toBe(true);
    expect((await db.collection(`${BANNER_IMAGES}/${big.name}/chunks`).get()).size).toBe(0);
    expect((await db.doc(`${BANNER_IMAGES}/${big.name}`).get()).exists).toBe(false);
  });
});

describe('banner image transfer between the adapters', () => {
  it('copies every image from SQLite to Firestore and back, unchanged, and a second copy changes nothing', async () => {
    const sqlite = subjects.get('sqlite')!;
    const fire = subjects.get('firestore')!;
    const images = [image(1.5 * 1024 * 1024, 11), image(10, 12, 'webp'), image(BANNER_IMAGE_CHUNK, 13, 'jpg'), image(2000, 14), image(5, 15)];
    for (const each of images) await sqlite.store.putBannerImage(each);
    const fromSqlite = await sqlite.exportAll();
    expect(fromSqlite.map((r) => r.name).sort()).toEqual(images.map((i) => i.name).sort());
    for (const each of images) {
      const record = fromSqlite.find((r) => r.name === each.name)!;
      expect(record).toEqual({ name: each.name, contentType: each.contentType, bytesBase64: Buffer.from(each.bytes).toString('base64') });
    }

    expect(await fire.importAll(fromSqlite)).toBe(images.length);
    expect(await fire.importAll(fromSqlite)).toBe(images.length); // idempotent
    const fromFirestore = await fire.exportAll();
    expect(fromFirestore).toEqual([...fromSqlite].sort((a, b) => (a.name < b.name ? -1 : 1)));
    for (const each of images) expect((await fire.store.getBannerImage(each.name))?.sha256).toBe(sha256Hex(each.bytes));

    for (const each of images) await sqlite.store.deleteBannerImage(each.name);
    expect(await sqlite.exportAll()).toEqual([]);
    expect(await sqlite.importAll(fromFirestore)).toBe(images.length);
    expect(await sqlite.exportAll()).toEqual(fromSqlite);
  });
});
