/** POST /api/admin/users/{uid}/grant `{plan, expiresOn?: 'YYYY-MM-DD'}`: grants a plan until that day ends in India, or for the plan's duration. Audited. */
export { grantUserPlan as POST } from '../../../../../server/admin/endpoints.ts';
