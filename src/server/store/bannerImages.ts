/**
 * The `bannerImages` part of the Store port: the bytes of the images the admin uploads for the
 * home carousel, by file name (`{uuid}.{ext}`, unique per upload, so an image never changes
 * under its name). In the store, not on a disk, so every instance behind a proxy serves them.
 *
 * Both adapters check every image before writing anything (`checkBannerImage`) and check the
 * stored SHA-256 on every read: bytes that do not match are logged and read as missing.
 */
import { createHash } from 'node:crypto';
import { BANNER_FILE, BANNER_IMAGE_TYPES, MAX_BANNER_BYTES } from '../../lib/admin/bannerImage.ts';

export interface BannerImage {
  /** `{uuid}.{ext}` (BANNER_FILE). */
  readonly name: string;
  /** `image/png`, `image/jpeg` or `image/webp`. */
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

export interface StoredBannerImage extends BannerImage {
  /** The bytes as read (their own ArrayBuffer: a Response body as they are). */
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** Lower-case hex SHA-256 of `bytes` (a strong validator: the endpoint's ETag). */
  readonly sha256: string;
}

export interface BannerImageStore {
  /** Stores the image under its name; an image already there of that name is replaced. */
  putBannerImage(image: BannerImage): Promise<void>;
  /** The image, or null when there is none of that name (or its stored bytes are damaged). */
  getBannerImage(name: string): Promise<StoredBannerImage | null>;
  /** False when there was none of that name. */
  deleteBannerImage(name: string): Promise<boolean>;
}

/** The canonical record of `npm run store:copy` (kind `bannerImages`). */
export interface BannerImageRecord {
  readonly name: string;
  readonly contentType: string;
  /** The bytes, standard base64 with padding. */
  readonly bytesBase64: string;
}

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const CONTENT_TYPES: readonly string[] = Object.values(BANNER_IMAGE_TYPES);

/** A name the image endpoint serves (and an id every adapter can store). */
export const isBannerImageName = (name: string): boolean => BANNER_FILE.test(name);

/** Throws a RangeError for an image no adapter may store: a bad name or type, no bytes, > 2 MiB. */
export function checkBannerImage(image: BannerImage): void {
  if (!isBannerImageName(image.name)) throw new RangeError(`not a banner image name: ${JSON.stringify(image.name)}`);
  if (!CONTENT_TYPES.includes(image.contentType)) throw new RangeError(`not a banner image type: ${JSON.stringify(image.contentType)} (${image.name})`);
  if (!(image.bytes instanceof Uint8Array) || image.bytes.byteLength === 0) throw new RangeError(`a banner image without bytes: ${image.name}`);
  if (image.bytes.byteLength > MAX_BANNER_BYTES) throw new RangeError(`a banner image above ${MAX_BANNER_BYTES} bytes: ${image.name}`);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const bannerImageRecordOf = (image: BannerImage): BannerImageRecord => ({
  name: image.name,
  contentType: image.contentType,
  bytesBase64: Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength).toString('base64'),
});

/** The image of a transfer record, checked (RangeError for a bad one, before anything is written). */
export function bannerImageOfRecord(record: BannerImageRecord): BannerImage {
  if (typeof record.bytesBase64 !== 'string' || !BASE64.test(record.bytesBase64)) throw new RangeError(`banner image ${JSON.stringify(record.name)}: bytesBase64 is not base64`);
  const image: BannerImage = { name: record.name, contentType: record.contentType, bytes: new Uint8Array(Buffer.from(record.bytesBase64, 'base64')) };
  checkBannerImage(image);
  return image;
}

/** Reports stored bytes that do not match their SHA-256 (read as missing). */
export function reportDamagedBannerImage(adapter: string, name: string, expected: string, actual: string): void {
  console.error(`[store:${adapter}] banner image ${name}: stored bytes do not match their sha256 (expected ${expected}, got ${actual}); answered as missing`);
}
