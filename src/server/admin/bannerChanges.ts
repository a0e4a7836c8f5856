/**
 * The admin's banner writes as endpoints: add (multipart form: image, alt, title, subtitle, href),
 * move up / down, remove; audited by the store. Uploaded images live in the store (the
 * `bannerImages` part, as `{uuid}.{ext}`: a new name per upload), so every instance behind a
 * proxy serves them; GET /api/carousels/images/{file} answers them with a strong ETag and
 * immutable caching. Files under DATA_DIR/banners/ (where images were kept before) are still
 * served, and copied into the store the first time they are asked for.
 */
import { randomUUID } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { EndpointHandler } from '../edge/endpoint.ts';
import { z } from 'astro/zod';
import { BANNER_FILE, BANNER_IMAGE_PATH, BANNER_IMAGE_TYPES, imageExtOf, isSitePath, MAX_BANNER_BYTES, type BannerImageExt } from '../../lib/admin/bannerImage.ts';
import { matchesIfNoneMatch } from '../http/json.ts';
import { json, jsonError, parseOr400, readFormUpTo, readJson } from '../http/responses.ts';
import { dataDir, store } from '../runtime.ts';
import type { BannerEditResult } from '../store/bannerAdmin.ts';
import { sha256Hex, type StoredBannerImage } from '../store/bannerImages.ts';
import { requireEditor } from './guard.ts';

/** Where banner images were stored as files before they moved into the store (read only now). */
export const bannerDir = (): string => join(dataDir, 'banners');

const BannerFields = z.object({
  alt: z.string({ error: 'Describe the image (alt text).' }).trim().min(3, 'Describe the image (alt text).').max(200, 'The alt text is too long (200 characters at most).'),
  title: z.string({ error: 'Give the banner a title.' }).trim().min(1, 'Give the banner a title.').max(120, 'The title is too long (120 characters at most).'),
  subtitle: z.string().trim().max(240, 'The subtitle is too long (240 characters at most).').optional().default(''),
  href: z
    .string({ error: 'Give the link (a path on this site).' })
    .trim()
    .refine(isSitePath, 'The link must be a path on this site, like /crude/Naphtha.'),
});

export const MoveBody = z.object({ direction: z.enum(['up', 'down'], { error: 'Direction must be up or down.' }) });

const answer = (result: BannerEditResult): Response =>
  result.kind === 'not_found'
    ? jsonError(404, 'unknown_banner', 'There is no such banner.', 'id')
    : json({ changed: result.kind === 'written', banners: result.kind === 'written' ? result.banners : undefined });

/** POST /api/admin/banners (multipart/form-data). */
export const addBanner: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const read = await readFormUpTo(context.request, { maxBytes: MAX_BANNER_BYTES + 64 * 1024, tooLarge: 'The image is too large: at most 2 MiB.', unsupported: 'Send the banner as a form with its image file.' });
  if (!read.ok) return read.response;
  const form = read.form;
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const fields = parseOr400(BannerFields, { alt: text('alt'), title: text('title'), subtitle: text('subtitle') || undefined, href: text('href') });
  if (!fields.ok) return fields.response;
  const file = form.get('image');
  if (!(file instanceof File) || file.size === 0) return jsonError(400, 'invalid_input', 'Choose an image file.', 'image');
  if (file.size > MAX_BANNER_BYTES) return jsonError(413, 'too_large', 'The image is too large: at most 2 MiB.', 'image');
  const bytes = new Uint8Array(await file.arrayBuffer());
  const ext = imageExtOf(bytes);
  if (!ext) return jsonError(400, 'invalid_input', 'The image must be a PNG, JPEG or WebP file.', 'image');

  // A new name per upload: the image endpoint may let caches keep it forever.
  const id = randomUUID();
  const name = `${id}.${ext}`;
  const db = await store();
  await db.putBannerImage({ name, contentType: BANNER_IMAGE_TYPES[ext], bytes });
  try {
    const result = await db.adminAddBanner({
      banner: { id, ...fields.data, image: `${BANNER_IMAGE_PATH}${name}` },
      actor: gate.actor,
      now: new Date(),
    });
    return answer(result);
  } catch (error) {
    await db.deleteBannerImage(name).catch(() => undefined);
    throw error;
  }
};

/** POST /api/admin/banners/{id}/move `{direction}`. */
export const moveBanner: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const input = await readJson(context.request, MoveBody);
  if (!input.ok) return input.response;
  return answer(await (await store()).adminMoveBanner({ id: context.params['id'] ?? '', direction: input.data.direction, actor: gate.actor, now: new Date() }));
};

/** POST /api/admin/banners/{id}/remove `{}`: the banner, and its uploaded image (and a legacy file of it). */
export const removeBanner: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const input = await readJson(context.request, z.object({}));
  if (!input.ok) return input.response;
  const db = await store();
  const result = await db.adminRemoveBanner({ id: context.params['id'] ?? '', actor: gate.actor, now: new Date() });
  // Seed banners point at static files (/banners/…): only uploaded images are removed.
  const image = result.removed?.image ?? '';
  if (image.startsWith(BANNER_IMAGE_PATH)) {
    const name = image.slice(BANNER_IMAGE_PATH.length);
    if (BANNER_FILE.test(name)) {
      // The banner is gone either way: an image left behind is only unused bytes.
      await db.deleteBannerImage(name).catch((error: unknown) => console.error(`[banners] could not delete image ${name} from the store`, error));
      await unlink(join(bannerDir(), name)).catch(() => undefined);
    }
  }
  return answer(result);
};

/** An image as it was stored before the store held them (DATA_DIR/banners/{name}), or null. */
async function legacyImage(name: string): Promise<StoredBannerImage | null> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(await readFile(join(bannerDir(), name)));
  } catch {
    return null;
  }
  const ext = name.slice(name.lastIndexOf('.') + 1) as BannerImageExt;
  return { name, contentType: BANNER_IMAGE_TYPES[ext], bytes, sha256: sha256Hex(bytes) };
}

const IMAGE_CACHE = 'public, max-age=31536000, immutable';

/**
 * GET /api/carousels/images/{file}: an uploaded banner image (public, immutable: names are
 * unique per upload), from the store; strong ETag (its SHA-256), 304 on If-None-Match. A file of
 * that name in DATA_DIR/banners/ (stored before images moved into the store) is served and
 * copied into the store once.
 */
export const bannerImage: EndpointHandler = async ({ params, request }) => {
  const name = params['file'] ?? '';
  if (!BANNER_FILE.test(name)) return jsonError(404, 'not_found', 'There is no such image.');
  const db = await store();
  let image = await db.getBannerImage(name);
  if (!image) {
    image = await legacyImage(name);
    if (!image) return jsonError(404, 'not_found', 'There is no such image.');
    await db.putBannerImage(image).catch((error: unknown) => console.error(`[banners] could not copy ${name} from DATA_DIR/banners into the store`, error));
  }
  const etag = `"${image.sha256}"`;
  const headers = new Headers({ ETag: etag, 'Cache-Control': IMAGE_CACHE, 'X-Content-Type-Options': 'nosniff' });
  if (matchesIfNoneMatch(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
  headers.set('Content-Type', image.contentType);
  return new Response(image.bytes, { status: 200, headers });
};
