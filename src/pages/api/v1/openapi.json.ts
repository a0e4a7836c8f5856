/** GET /api/v1/openapi.json: the data feed described (OpenAPI 3.1), public. */
export { feedOpenApi as GET } from '../../../server/feed/endpoints.ts';
