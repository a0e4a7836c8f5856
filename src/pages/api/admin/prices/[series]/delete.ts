/** POST /api/admin/prices/{series}/delete `{date, expected}`: deletes one point (409 when it changed meanwhile). Audited. */
export { deletePricePoint as POST } from '../../../../../server/admin/endpoints.ts';
