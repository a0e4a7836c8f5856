/** GET /api/citywise: every city's newest sheet: a read of the data API (both lanes). */
export { citywise as GET } from '../../../server/api/endpoints.ts';
