/** GET /api/home/ticker → latest value and change of the key series (full access: subscribers). */
import type { APIRoute } from 'astro';
import { tickerResponse } from '../../../server/api/home.ts';
import { requireDataAccess } from '../../../server/http/access.ts';
import { store as getStore } from '../../../server/runtime.ts';

export const GET: APIRoute = async ({ request, locals }) => requireDataAccess(locals) ?? tickerResponse(await getStore(), request);
