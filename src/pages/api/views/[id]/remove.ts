/** POST /api/views/{id}/remove → deletes one of the user's saved views (404 when it is not theirs). */
export { removeView as POST } from '../../../../server/api/endpoints.ts';
