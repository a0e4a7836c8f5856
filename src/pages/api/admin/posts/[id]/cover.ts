/** POST /api/admin/posts/{id}/cover (multipart: image, alt): the post's cover image. Editors and admins; audited. */
export { postCover as POST } from '../../../../../server/admin/endpoints.ts';
