/** POST /api/admin/posts/{id}/cover (multipart: image, alt): the post's cover image. Editors and admins; audited. */
import { uploadCover } from '../../../../../server/admin/postCover.ts';

export const POST = uploadCover;
