/** GET /api/blogs?type&year&month → {data:[…]} oldest first (DESIGN §6; src/server/api/blogs.ts). */
import type { APIRoute } from 'astro';
import { blogsResponse } from '../../server/api/blogs.ts';
import { store as getStore } from '../../server/runtime.ts';

export const GET: APIRoute = async ({ request, url, locals }) => blogsResponse(await getStore(), request, url, locals.session);
