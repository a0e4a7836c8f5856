/** GET /api/account/documents/{id}: the PDF of the buyer's tax invoice or credit note (owner or admin only). */
export { documentPdf as GET } from '../../../../server/account/endpoints.ts';
