/** GET /api/v1/series/{id}.csv?from&to&unit: one series as CSV (the data feed; both lanes). */
export { feedSeries as GET } from '../../../../server/feed/endpoints.ts';
