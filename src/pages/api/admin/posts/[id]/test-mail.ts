/** POST /api/admin/posts/{id}/test-mail `{}`: the post as a mail, to the editor's own address. */
export { postTestMail as POST } from '../../../../../server/admin/endpoints.ts';
