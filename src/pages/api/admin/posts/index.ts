/** GET /api/admin/posts?type&status&q&deleted&page (the desk's list); POST /api/admin/posts (a new post). Editors and admins; audited. */
export { deskPosts as GET, newPost as POST } from '../../../../server/admin/endpoints.ts';
