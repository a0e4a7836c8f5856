/** POST /api/views/{id}/remove → deletes one of the user's saved views (404 when it is not theirs). */
import type { APIRoute } from 'astro';
import { removeViewResponse } from '../../../../server/api/views.ts';
import { requireDataAccess } from '../../../../server/http/access.ts';
import { sameOriginError, unauthenticated } from '../../../../server/http/responses.ts';
import { store as getStore } from '../../../../server/runtime.ts';

export const POST: APIRoute = async ({ request, params, locals }) => {
  const denied = requireDataAccess(locals);
  if (denied) return denied;
  if (!locals.session) return unauthenticated();
  const crossOrigin = sameOriginError(request);
  if (crossOrigin) return crossOrigin;
  return removeViewResponse(await getStore(), locals.session.uid, params['id'] ?? '');
};
