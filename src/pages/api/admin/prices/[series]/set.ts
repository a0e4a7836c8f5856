/** POST /api/admin/prices/{series}/set `{date, value, expected?}`: adds or changes one point (409 when it changed meanwhile). Audited. */
export { setPricePoint as POST } from '../../../../../server/admin/endpoints.ts';
