/**
 * Firestore adapter of the banner images (see ../bannerImages.ts). A document holds at most
 * 1 MiB, an image up to 2 MiB, so an image is a head document and its bytes in chunks:
 *
 *   bannerImages/{name}             { name, contentType, size, sha256, chunkCount }
 *   bannerImages/{name}/chunks/{000} { index, data: Bytes (≤ 512 KiB) }
 *
 * A put is one transaction (one image per commit: a commit request stays far below Firestore's
 * 10 MiB): the chunks first, the head last, then the removal of chunks the head no longer
 * counts. Where a commit stops part-way (the offline stand-in applies writes one by one), the
 * head is either the old one or the new one; a reader that meets chunks of another generation
 * finds the SHA-256 wrong and answers "missing" (logged). A delete removes the head first, so
 * no head ever counts chunks that are gone.
 *
 * A read is the head, then one getAll of its chunks; the bytes are checked against size and
 * SHA-256. Also the image part of `npm run store:copy` (`exportBannerImages` /
 * `importBannerImages`).
 */
import type { DocumentData, Firestore } from 'firebase-admin/firestore';
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
import { docId, transact } from './database.ts';

export const BANNER_IMAGES = 'bannerImages';
/** Bytes per chunk document (a document holds at most 1 MiB). */
export const BANNER_IMAGE_CHUNK = 512 * 1024;

const chunkId = (index: number): string => String(index).padStart(3, '0');

function slices(bytes: Uint8Array): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.byteLength; at += BANNER_IMAGE_CHUNK) {
    const end = Math.min(at + BANNER_IMAGE_CHUNK, bytes.byteLength);
    out.push(Buffer.from(bytes.buffer, bytes.byteOffset + at, end - at));
  }
  return out;
}

const bytesOf = (value: unknown): Uint8Array | null => (value instanceof Uint8Array ? value : null);

async function putImage(db: Firestore, image: BannerImage): Promise<void> {
  const head = db.collection(BANNER_IMAGES).doc(docId(image.name));
  const chunkDocs = head.collection('chunks');
  const parts = slices(image.bytes);
  await transact(db, async (tx) => {
    // Chunks of an earlier image of this name (or of a put that stopped before its head).
    const existing = await tx.get(chunkDocs.select('index'));
    parts.forEach((data, index) => tx.set(chunkDocs.doc(chunkId(index)), { index, data }));
    tx.set(head, { name: image.name, contentType: image.contentType, size: image.bytes.byteLength, sha256: sha256Hex(image.bytes), chunkCount: parts.length });
    const kept = new Set(parts.map((_, index) => chunkId(index)));
    for (const chunk of existing.docs) if (!kept.has(chunk.id)) tx.delete(chunk.ref);
  });
}

async function getImage(db: Firestore, name: string): Promise<StoredBannerImage | null> {
  if (!isBannerImageName(name)) return null;
  const headRef = db.collection(BANNER_IMAGES).doc(docId(name));
  const head = await headRef.get();
  if (!head.exists) return null;
  const data: DocumentData = head.data()!;
  const expected = String(data['sha256']);
  const chunkCount = Number(data['chunkCount']);
  const refs = Array.from({ length: chunkCount }, (_, index) => headRef.collection('chunks').doc(chunkId(index)));
  const chunkDocs = refs.length > 0 ? await db.getAll(...refs) : [];
  const parts: Uint8Array[] = [];
  for (const [index, chunk] of chunkDocs.entries()) {
    const part = chunk.exists ? bytesOf(chunk.get('data')) : null;
    if (!part || Number(chunk.get('index')) !== index) {
      reportDamagedBannerImage('firestore', name, expected, `chunk ${chunkId(index)} missing`);
      return null;
    }
    parts.push(part);
  }
  const bytes = new Uint8Array(Buffer.concat(parts));
  const actual = sha256Hex(bytes);
  if (actual !== expected || bytes.byteLength !== Number(data['size'])) {
    reportDamagedBannerImage('firestore', name, expected, `${actual} (${bytes.byteLength} bytes)`);
    return null;
  }
  return { name, contentType: String(data['contentType']), bytes, sha256: expected };
}

export function createFirestoreBannerImageStore(db: Firestore): BannerImageStore {
  return {
    async putBannerImage(image) {
      checkBannerImage(image);
      await putImage(db, image);
    },

    getBannerImage: (name) => getImage(db, name),

    async deleteBannerImage(name) {
      if (!isBannerImageName(name)) return false;
      const head = db.collection(BANNER_IMAGES).doc(docId(name));
      return transact(db, async (tx) => {
        const [found, chunkDocs] = [await tx.get(head), await tx.get(head.collection('chunks').select('index'))];
        tx.delete(head);
        for (const chunk of chunkDocs.docs) tx.delete(chunk.ref);
        return found.exists;
      });
    },
  };
}

/** Images per exported page: at most 2 MiB each, so a page stays a few tens of MiB. */
export const BANNER_IMAGE_PAGE = 8;

/**
 * Every stored image as transfer records, in name order, `pageSize` at a time (the names are
 * read first: a handful of small fields, no cursors needed). A damaged image is logged and left
 * out, so a copy never spreads it.
 */
export async function* exportBannerImages(db: Firestore, pageSize: number = BANNER_IMAGE_PAGE): AsyncIterable<readonly BannerImageRecord[]> {
  const names = (await db.collection(BANNER_IMAGES).select('name').get()).docs.map((doc) => doc.id).sort();
  for (let at = 0; at < names.length; at += pageSize) {
    const page: BannerImageRecord[] = [];
    for (const name of names.slice(at, at + pageSize)) {
      const image = await getImage(db, name);
      if (image) page.push(bannerImageRecordOf(image));
    }
    if (page.length > 0) yield page;
  }
}

/**
 * Writes transfer records after checking all of them (a bad record: RangeError, nothing
 * written); one transaction per image, each an upsert by name, so a run that stopped part-way
 * is completed by running it again. Returns how many were written.
 */
export async function importBannerImages(db: Firestore, records: readonly BannerImageRecord[]): Promise<number> {
  const images = records.map(bannerImageOfRecord);
  for (const image of images) await putImage(db, image);
  return images.length;
}
