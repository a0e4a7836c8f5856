/** GET /api/admin/audit?target&actor&page&pageSize: the audit log as JSON, newest first. Admins only. */
import type { APIRoute } from 'astro';
import { auditQueryOf } from '../../../server/admin/auditQuery.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { json } from '../../../server/http/responses.ts';
import { store } from '../../../server/runtime.ts';

export const GET: APIRoute = async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  return json(await (await store()).listAudit(auditQueryOf(context.url.searchParams)), { headers: { 'Cache-Control': 'private, no-store' } });
};
