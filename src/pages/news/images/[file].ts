/** GET /news/images/{file}: a post's cover image from the store (public, immutable, ETag). */
import { coverImage } from '../../../server/admin/postCover.ts';

export const prerender = false;
export const GET = coverImage;
