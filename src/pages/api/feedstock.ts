/** GET /api/feedstock?name&country&type[&year]: a read of the data API (both lanes). */
export { feedstock as GET } from '../../server/api/endpoints.ts';
