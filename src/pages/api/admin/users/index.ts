/** GET /api/admin/users?q=…: users by e-mail, phone or uid (the newest without a query). Admins only. */
import type { APIRoute } from 'astro';
import { requireAdmin } from '../../../../server/admin/guard.ts';
import { json } from '../../../../server/http/responses.ts';
import { store } from '../../../../server/runtime.ts';
import { publicUserRecord } from '../../../../server/users.ts';

export const GET: APIRoute = async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  const query = (context.url.searchParams.get('q') ?? '').trim().slice(0, 200);
  const users = await (await store()).searchUsers(query, 50);
  return json({ users: users.map(publicUserRecord) }, { headers: { 'Cache-Control': 'private, no-store' } });
};
