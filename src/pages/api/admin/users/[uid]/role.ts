/** POST /api/admin/users/{uid}/role `{role: 'admin'|'user'}`: sets the role (never one's own admin role away). Audited. */
export { setUserRole as POST } from '../../../../../server/admin/endpoints.ts';
