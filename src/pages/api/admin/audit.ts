/** GET /api/admin/audit?target&actor&page&pageSize: the audit log as JSON, newest first. Admins only. */
export { auditLog as GET } from '../../../server/admin/endpoints.ts';
