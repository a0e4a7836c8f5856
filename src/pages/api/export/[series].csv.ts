/** GET /api/export/{seriesId}.csv: every point of one series: a read of the data API (both lanes). */
export { exportCsv as GET } from '../../../server/api/endpoints.ts';
