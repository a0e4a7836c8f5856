/** GET /api/v1/series/{id}?from&to&unit: one series over a range (the data feed; both lanes). */
export { feedSeries as GET } from '../../../../server/feed/endpoints.ts';
