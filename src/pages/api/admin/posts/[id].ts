/** GET, PATCH, DELETE (soft) /api/admin/posts/{id}. Editors and admins; audited. */
import { deletePost, getPost, patchPost } from '../../../../server/admin/postChanges.ts';

export const GET = getPost;
export const PATCH = patchPost;
export const DELETE = deletePost;
