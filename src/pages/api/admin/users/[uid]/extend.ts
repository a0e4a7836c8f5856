/** POST /api/admin/users/{uid}/extend `{days}` or `{until: 'YYYY-MM-DD'}`: extends the current plan. Audited. */
export { extendUserPlan as POST } from '../../../../../server/admin/endpoints.ts';
