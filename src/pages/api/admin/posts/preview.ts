/** POST /api/admin/posts/preview `{body}` → `{html}`: the editor's live preview, by the site's own renderer. */
import { previewPost } from '../../../../server/admin/postChanges.ts';

export const POST = previewPost;
