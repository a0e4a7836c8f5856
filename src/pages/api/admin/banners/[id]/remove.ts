/** POST /api/admin/banners/{id}/remove `{}`: removes the banner and its uploaded image. Audited. */
export { removeBanner as POST } from '../../../../../server/admin/endpoints.ts';
