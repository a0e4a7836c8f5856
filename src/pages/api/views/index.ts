/** GET /api/views → the user's saved comparison views; POST /api/views {name, query} → save (src/server/api/views.ts). */
import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { listViewsResponse, saveViewResponse } from '../../../server/api/views.ts';
import { requireDataAccess } from '../../../server/http/access.ts';
import { readSignedInPost, unauthenticated } from '../../../server/http/responses.ts';
import { store as getStore } from '../../../server/runtime.ts';

export const GET: APIRoute = async ({ locals }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  if (!locals.session) return unauthenticated();
  return listViewsResponse(await getStore(), locals.session.uid);
};

export const POST: APIRoute = async ({ request, locals }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  // The body is validated by saveViewResponse, which names the field.
  const input = await readSignedInPost(request, locals.session ?? null, z.unknown());
  if (!input.ok) return input.response;
  return saveViewResponse(await getStore(), input.session.uid, input.data);
};
