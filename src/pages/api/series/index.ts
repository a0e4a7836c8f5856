/** GET /api/series?ids&from&to&unit[&view&ma]: the comparison's data: a read of the data API (both lanes). */
export { series as GET } from '../../../server/api/endpoints.ts';
