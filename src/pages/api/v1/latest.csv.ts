/** GET /api/v1/latest.csv?ids=…: the newest prices as CSV (the data feed; both lanes). */
export { feedLatest as GET } from '../../../server/feed/endpoints.ts';
