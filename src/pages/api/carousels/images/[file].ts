/** GET /api/carousels/images/{file}: an uploaded banner image (public). */
export { bannerImage as GET } from '../../../../server/api/endpoints.ts';
