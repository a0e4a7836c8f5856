/** GET /api/historicaldata?polymer&year: a read of the data API (both lanes). */
export { historicaldata as GET } from '../../server/api/endpoints.ts';
