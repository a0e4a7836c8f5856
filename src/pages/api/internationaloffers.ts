/** GET /api/internationaloffers?country&month&year: a read of the data API (both lanes). */
export { internationaloffers as GET } from '../../server/api/endpoints.ts';
