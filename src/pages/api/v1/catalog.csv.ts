/** GET /api/v1/catalog.csv: the catalog as CSV (the data feed; both lanes). */
export { feedCatalog as GET } from '../../../server/feed/endpoints.ts';
