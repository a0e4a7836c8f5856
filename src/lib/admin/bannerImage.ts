/**
 * Banner images, pure: the accepted types (PNG, JPEG, WebP: recognised by their first bytes,
 * never by the name or the declared type; SVG is refused, it can carry script), the size limit,
 * the stored file name and its public URL.
 */

export const MAX_BANNER_BYTES = 2 * 1024 * 1024;
export const BANNER_IMAGE_TYPES = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const;
export type BannerImageExt = keyof typeof BANNER_IMAGE_TYPES;
/** Where stored banner images are served (public: under /api/carousels). */
export const BANNER_IMAGE_PATH = '/api/carousels/images/';
/** `{id}.{ext}`, the only names the image endpoint serves. */
export const BANNER_FILE = /^[a-z0-9-]{8,64}\.(png|jpg|webp)$/;

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  signature.every((b, i) => bytes[offset + i] === b);

export function imageExtOf(bytes: Uint8Array): BannerImageExt | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return null;
}

/** Internal links only: a path on this site (`/crude/Naphtha`), never another site or a script. */
export const isSitePath = (href: string): boolean => /^\/(?!\/)[^\s\\]*$/.test(href);
