/** GET, PATCH, DELETE (soft) /api/admin/posts/{id}. Editors and admins; audited. */
export { readPost as GET, editPost as PATCH, removePost as DELETE } from '../../../../server/admin/endpoints.ts';
