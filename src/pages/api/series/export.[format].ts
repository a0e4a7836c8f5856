/** GET /api/series/export.{csv|xlsx|svg|png}?<the /api/series query> → the comparison as a file (src/server/api/seriesExport.ts). */
export { seriesExport as GET } from '../../../server/api/endpoints.ts';
