/** POST /api/admin/posts/{id}/test-mail `{}`: the post as a mail, to the editor's own address. */
import { sendTestMail } from '../../../../../server/admin/postMail.ts';

export const POST = sendTestMail;
