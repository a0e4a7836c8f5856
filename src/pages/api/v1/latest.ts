/** GET /api/v1/latest?ids=…: the newest price of each series (the data feed; both lanes). */
export { feedLatest as GET } from '../../../server/feed/endpoints.ts';
