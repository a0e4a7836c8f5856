/** GET /api/admin/posts?type&status&q&deleted&page (the desk's list); POST /api/admin/posts (a new post). Editors and admins; audited. */
import { createPost, listPosts } from '../../../../server/admin/postChanges.ts';

export const GET = listPosts;
export const POST = createPost;
