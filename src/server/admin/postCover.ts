/**
 * A post's cover image: uploaded like a banner image (PNG, JPEG or WebP recognised by its first
 * bytes, at most 2 MiB, SVG refused; src/lib/admin/bannerImage.ts), then decoded and re-encoded
 * by Sharp into WebP at COVER_WIDTHS (no metadata survives: no GPS position from a phone photo,
 * and nothing but pixels reaches a reader), stored in the store's image part (as banner images
 * are, so every instance serves them) and served by GET /news/images/{file} with immutable
 * caching (a new name per upload).
 *
 *   POST /api/admin/posts/{id}/cover   multipart: image, alt
 */
import { randomUUID } from 'node:crypto';
import type { APIRoute } from 'astro';
import type { EndpointHandler } from '../edge/endpoint.ts';
import { z } from 'astro/zod';
import sharp from 'sharp';
import { imageExtOf, MAX_BANNER_BYTES } from '../../lib/admin/bannerImage.ts';
import { COVER_WIDTHS, coverFileName, type PostCover } from '../../lib/posts.ts';
import { matchesIfNoneMatch } from '../http/json.ts';
import { json, jsonError, parseOr400, readFormUpTo } from '../http/responses.ts';
import { store } from '../runtime.ts';
import { requireEditor } from './guard.ts';
import { postView } from './postChanges.ts';

/** Decoding bombs stop here: 40 megapixels (a 7,000 × 5,700 photo). */
const MAX_INPUT_PIXELS = 40_000_000;
const COVER_QUALITY = 75;

const CoverFields = z.object({
  alt: z.string({ error: 'Describe the image (alt text).' }).trim().min(3, 'Describe the image (alt text).').max(200, 'The alt text is too long (200 characters at most).'),
});

export interface EncodedCover {
  readonly width: number;
  readonly height: number;
  /** One WebP per COVER_WIDTHS entry, in that order. */
  readonly variants: readonly { readonly width: number; readonly bytes: Uint8Array }[];
}

/** The upload as WebP variants, or null when Sharp cannot read it as an image. */
export async function encodeCover(bytes: Uint8Array): Promise<EncodedCover | null> {
  try {
    const source = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
    const variants: { width: number; bytes: Uint8Array; height: number }[] = [];
    for (const width of COVER_WIDTHS) {
      const { data, info } = await source
        .clone()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: COVER_QUALITY })
        .toBuffer({ resolveWithObject: true });
      variants.push({ width, bytes: new Uint8Array(data), height: info.height });
    }
    const widest = await sharp(variants[0]!.bytes).metadata();
    return { width: widest.width ?? COVER_WIDTHS[0], height: widest.height ?? variants[0]!.height, variants: variants.map(({ width, bytes: b }) => ({ width, bytes: b })) };
  } catch {
    return null;
  }
}

/** POST /api/admin/posts/{id}/cover (multipart/form-data: image, alt). */
export const uploadCover: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const read = await readFormUpTo(context.request, { maxBytes: MAX_BANNER_BYTES + 64 * 1024, tooLarge: 'The image is too large: at most 2 MiB.', unsupported: 'Send the cover as a form with its image file.' });
  if (!read.ok) return read.response;
  const form = read.form;
  const alt = form.get('alt');
  const fields = parseOr400(CoverFields, { alt: typeof alt === 'string' ? alt : undefined });
  if (!fields.ok) return fields.response;
  const file = form.get('image');
  if (!(file instanceof File) || file.size === 0) return jsonError(400, 'invalid_input', 'Choose an image file.', 'image');
  if (file.size > MAX_BANNER_BYTES) return jsonError(413, 'too_large', 'The image is too large: at most 2 MiB.', 'image');
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!imageExtOf(bytes)) return jsonError(400, 'invalid_input', 'The image must be a PNG, JPEG or WebP file.', 'image');

  const db = await store();
  const id = context.params['id'] ?? '';
  // Checked before the image work: an unknown post stores nothing.
  if (!(await db.getPost(id))) return jsonError(404, 'unknown_post', 'There is no such post.', 'id');
  const encoded = await encodeCover(bytes);
  if (!encoded) return jsonError(400, 'invalid_input', 'The image could not be read (damaged, or larger than 40 megapixels).', 'image');

  const image = randomUUID();
  const names = encoded.variants.map((v) => coverFileName(image, v.width));
  for (const [index, variant] of encoded.variants.entries()) await db.putBannerImage({ name: names[index]!, contentType: 'image/webp', bytes: variant.bytes });
  const cover: PostCover = { image, alt: fields.data.alt, width: encoded.width, height: encoded.height };
  const now = new Date();
  try {
    const result = await db.updatePost({
      id,
      actor: gate.actor,
      now,
      action: 'post.cover',
      change: (current) => (current.deletedAt !== null ? { ok: false, reason: 'deleted' as const } : { ok: true, post: { ...current, cover, updatedAt: now.toISOString() } }),
    });
    if (result.kind !== 'written') {
      for (const name of names) await db.deleteBannerImage(name).catch(() => undefined);
      if (result.kind === 'not_found') return jsonError(404, 'unknown_post', 'There is no such post.', 'id');
      if (result.kind === 'refused') return jsonError(409, 'deleted', 'The post is deleted; restore it first.');
      return json({ changed: false });
    }
    // The replaced cover's files stay: the audit log's "before" may still show them.
    return json({ changed: true, cover, auditId: result.entry.id, post: postView(result.post) });
  } catch (error) {
    for (const name of names) await db.deleteBannerImage(name).catch(() => undefined);
    throw error;
  }
};

const IMAGE_CACHE = 'public, max-age=31536000, immutable';

/** GET /news/images/{file}: a stored cover variant (public, immutable), strong ETag (its SHA-256), 304 on If-None-Match. */
export const coverImage: APIRoute = async ({ params, request }) => {
  const name = params['file'] ?? '';
  if (!/^[a-f0-9-]{36}-\d{2,4}\.webp$/.test(name)) return jsonError(404, 'not_found', 'There is no such image.');
  const image = await (await store()).getBannerImage(name);
  if (!image) return jsonError(404, 'not_found', 'There is no such image.');
  const etag = `"${image.sha256}"`;
  const headers = new Headers({ ETag: etag, 'Cache-Control': IMAGE_CACHE, 'X-Content-Type-Options': 'nosniff' });
  if (matchesIfNoneMatch(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
  headers.set('Content-Type', image.contentType);
  return new Response(image.bytes, { status: 200, headers });
};
