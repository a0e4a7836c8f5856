/** GET /api/v1/catalog: every series with its id, name, unit and basis (the data feed; both lanes). */
export { feedCatalog as GET } from '../../../server/feed/endpoints.ts';
