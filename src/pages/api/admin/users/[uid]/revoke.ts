/** POST /api/admin/users/{uid}/revoke `{}`: ends the plan now (kept as lastPlan). Audited. */
export { revokeUserPlan as POST } from '../../../../../server/admin/endpoints.ts';
