/** GET /api/carousels/: the banner list (public): a read of the data API (both lanes). */
export { carousels as GET } from '../../../server/api/endpoints.ts';
