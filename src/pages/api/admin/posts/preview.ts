/** POST /api/admin/posts/preview `{body}` → `{html}`: the editor's live preview, by the site's own renderer. */
export { postPreview as POST } from '../../../../server/admin/endpoints.ts';
