/** GET /api/citywise/{city}[?date=YYYY-MM-DD]: one city's sheet: a read of the data API (both lanes). */
export { citywiseCity as GET } from '../../../server/api/endpoints.ts';
