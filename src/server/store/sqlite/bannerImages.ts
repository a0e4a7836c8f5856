/**
 * SQLite adapter of the banner images (see ../bannerImages.ts): one row per image in
 * `banner_images`, the bytes as a BLOB with their SHA-256. Also the image part of
 * `npm run store:copy` (`exportBannerImages` / `importBannerImages`).
 */
import type { Client, Row } from '@libsql/client';
import {
  bannerImageOfRecord,
  bannerImageRecordOf,
  checkBannerImage,
  isBannerImageName,
  reportDamagedBannerImage,
  sha256Hex,
  type BannerImage,
  type BannerImageRecord,
  type BannerImageStore,
  type StoredBannerImage,
} from '../bannerImages.ts';
import { inTransaction, withWriteLock, type Migration } from './database.ts';

export const bannerImageMigrations: readonly Migration[] = [
  {
    id: 'banner-images-001',
    statements: [
      `CREATE TABLE banner_images (
         name TEXT PRIMARY KEY,
         content_type TEXT NOT NULL,
         bytes BLOB NOT NULL,
         sha256 TEXT NOT NULL,
         created_at TEXT NOT NULL
       )`,
    ],
  },
];

/** Replaces the bytes of a name already there; its created_at stays. */
const UPSERT = `INSERT INTO banner_images (name, content_type, bytes, sha256, created_at) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET content_type = excluded.content_type, bytes = excluded.bytes, sha256 = excluded.sha256`;

const upsertArgs = (image: BannerImage, now: string) => [image.name, image.contentType, image.bytes, sha256Hex(image.bytes), now];

const bytesOf = (value: unknown): Uint8Array<ArrayBuffer> => {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (value instanceof Uint8Array) return new Uint8Array(value);
  throw new TypeError('banner_images.bytes is not a BLOB');
};

/** The row's image, or null (logged) when its bytes do not match their SHA-256. */
function imageOf(row: Row): StoredBannerImage | null {
  const name = String(row['name']);
  const bytes = bytesOf(row['bytes']);
  const expected = String(row['sha256']);
  const actual = sha256Hex(bytes);
  if (actual !== expected) {
    reportDamagedBannerImage('sqlite', name, expected, actual);
    return null;
  }
  return { name, contentType: String(row['content_type']), bytes, sha256: expected };
}

export function createSqliteBannerImageStore(client: Client): BannerImageStore {
  return {
    async putBannerImage(image) {
      checkBannerImage(image);
      await withWriteLock(client, () => client.execute({ sql: UPSERT, args: upsertArgs(image, new Date().toISOString()) }));
    },

    async getBannerImage(name) {
      if (!isBannerImageName(name)) return null;
      const row = (await client.execute({ sql: 'SELECT * FROM banner_images WHERE name = ?', args: [name] })).rows[0];
      return row ? imageOf(row) : null;
    },

    async deleteBannerImage(name) {
      if (!isBannerImageName(name)) return false;
      const result = await withWriteLock(client, () => client.execute({ sql: 'DELETE FROM banner_images WHERE name = ?', args: [name] }));
      return result.rowsAffected > 0;
    },
  };
}

/** Images per exported page: at most 2 MiB each, so a page stays a few tens of MiB. */
export const BANNER_IMAGE_PAGE = 8;

/**
 * Every stored image as transfer records, in name order, `pageSize` at a time. A damaged image
 * (bytes not matching their SHA-256) is logged and left out, so a copy never spreads it.
 */
export async function* exportBannerImages(client: Client, pageSize: number = BANNER_IMAGE_PAGE): AsyncIterable<readonly BannerImageRecord[]> {
  let after = '';
  for (;;) {
    const rows = (await client.execute({ sql: 'SELECT * FROM banner_images WHERE name > ? ORDER BY name LIMIT ?', args: [after, pageSize] })).rows;
    if (rows.length === 0) return;
    after = String(rows[rows.length - 1]!['name']);
    const page = rows.map(imageOf).filter((image) => image !== null).map(bannerImageRecordOf);
    if (page.length > 0) yield page;
    if (rows.length < pageSize) return;
  }
}

/**
 * Writes transfer records (upserts by name: a re-run changes nothing) in one transaction, after
 * checking all of them (a bad record: RangeError, nothing written). Returns how many were written.
 */
export async function importBannerImages(client: Client, records: readonly BannerImageRecord[]): Promise<number> {
  const images = records.map(bannerImageOfRecord);
  if (images.length === 0) return 0;
  const now = new Date().toISOString();
  await inTransaction(client, async (tx) => {
    for (const image of images) await tx.execute({ sql: UPSERT, args: upsertArgs(image, now) });
  });
  return images.length;
}
