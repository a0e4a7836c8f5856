/** GET /api/admin/users?q=…: users by e-mail, phone or uid (the newest without a query). Admins only. */
export { findUsers as GET } from '../../../../server/admin/endpoints.ts';
