/**
 * The admin's banner writes as endpoints: add (multipart form: image, alt, title, subtitle, href),
 * move up / down, remove; audited by the store. Images are stored as files under
 * DATA_DIR/banners/ (`{id}.{ext}`) and served by GET /api/carousels/images/{file}.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { BANNER_FILE, BANNER_IMAGE_PATH, BANNER_IMAGE_TYPES, imageExtOf, isSitePath, MAX_BANNER_BYTES, type BannerImageExt } from '../../lib/admin/bannerImage.ts';
import { json, jsonError, parseOr400, readBytesUpTo, readJson } from '../http/responses.ts';
import { dataDir, store } from '../runtime.ts';
import type { BannerEditResult } from '../store/bannerAdmin.ts';
import { requireAdmin } from './guard.ts';

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
export const addBanner: APIRoute = async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  const type = context.request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) return jsonError(415, 'unsupported_media_type', 'Send the banner as a form with its image file.');
  const body = await readBytesUpTo(context.request, MAX_BANNER_BYTES + 64 * 1024, 'The image is too large: at most 2 MiB.');
  if (!body.ok) return body.response;
  let form: FormData;
  try {
    form = await new Response(Buffer.from(body.bytes), { headers: { 'content-type': type } }).formData();
  } catch {
    return jsonError(400, 'invalid_body', 'The form could not be read.');
  }
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

  const id = randomUUID();
  const name = `${id}.${ext}`;
  await mkdir(bannerDir(), { recursive: true });
  await writeFile(join(bannerDir(), name), bytes, { mode: 0o644 });
  try {
    const result = await (await store()).adminAddBanner({
      banner: { id, ...fields.data, image: `${BANNER_IMAGE_PATH}${name}` },
      actor: gate.actor,
      now: new Date(),
    });
    return answer(result);
  } catch (error) {
    await unlink(join(bannerDir(), name)).catch(() => undefined);
    throw error;
  }
};

/** POST /api/admin/banners/{id}/move `{direction}`. */
export const moveBanner: APIRoute = async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  const input = await readJson(context.request, MoveBody);
  if (!input.ok) return input.response;
  return answer(await (await store()).adminMoveBanner({ id: context.params['id'] ?? '', direction: input.data.direction, actor: gate.actor, now: new Date() }));
};

/** POST /api/admin/banners/{id}/remove `{}`: the banner, and its uploaded image file. */
export const removeBanner: APIRoute = async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  const input = await readJson(context.request, z.object({}));
  if (!input.ok) return input.response;
  const result = await (await store()).adminRemoveBanner({ id: context.params['id'] ?? '', actor: gate.actor, now: new Date() });
  const image = result.removed?.image ?? '';
  if (image.startsWith(BANNER_IMAGE_PATH)) {
    const name = image.slice(BANNER_IMAGE_PATH.length);
    if (BANNER_FILE.test(name)) await unlink(join(bannerDir(), name)).catch(() => undefined);
  }
  return answer(result);
};

/** GET /api/carousels/images/{file}: an uploaded banner image (public, immutable: names are unique). */
export const bannerImage: APIRoute = async ({ params }) => {
  const name = params['file'] ?? '';
  if (!BANNER_FILE.test(name)) return jsonError(404, 'not_found', 'There is no such image.');
  try {
    const bytes = await readFile(join(bannerDir(), name));
    const ext = name.slice(name.lastIndexOf('.') + 1) as BannerImageExt;
    return new Response(bytes, {
      headers: {
        'Content-Type': BANNER_IMAGE_TYPES[ext],
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch {
    return jsonError(404, 'not_found', 'There is no such image.');
  }
};
