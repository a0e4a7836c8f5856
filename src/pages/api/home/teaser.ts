/** GET /api/home/teaser → the Naphtha trend's shape and direction, no figures (public: the home page shows it to everyone). */
import type { APIRoute } from 'astro';
import { teaserResponse } from '../../../server/api/home.ts';
import { store as getStore } from '../../../server/runtime.ts';

export const GET: APIRoute = async ({ request }) => teaserResponse(await getStore(), request);
