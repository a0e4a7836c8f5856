import type { APIRoute } from 'astro';
import { json } from '../../../server/http/responses.ts';
import { firebaseWebConfig } from '../../../server/runtime.ts';

/** The Firebase web config for the sign-in page; read at run time so one build serves every mode. */
export const GET: APIRoute = () => json(firebaseWebConfig, { headers: { 'Cache-Control': 'public, max-age=300' } });
