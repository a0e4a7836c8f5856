/**
 * GET /api/home/ticker → the key series for everyone: latest value and change for visitors whose
 * plan opens the data (Premium and up, a trial, an administrator), the name and the direction of
 * the latest move for everyone else (no figures, no error).
 */
import type { APIRoute } from 'astro';
import { entitlementMeets } from '../../../lib/access/policy.ts';
import { tickerResponse } from '../../../server/api/home.ts';
import { store as getStore } from '../../../server/runtime.ts';

export const GET: APIRoute = async ({ request, locals }) =>
  tickerResponse(await getStore(), request, entitlementMeets('full', locals.session?.entitlement ?? 'anonymous'));
