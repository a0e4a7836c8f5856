/** POST /api/admin/banners (multipart: image, alt, title, subtitle, href): adds a carousel banner, last. Audited. */
export { addBanner as POST } from '../../../../server/admin/endpoints.ts';
