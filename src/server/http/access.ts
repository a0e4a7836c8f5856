/**
 * Defence in depth for data endpoints: the middleware already answers 401/403 from the access
 * policy before an endpoint runs; each data endpoint asks again here, from the same facts.
 */
import type { Entitlement } from '../../lib/access/policy.ts';
import type { Session } from '../auth/session.ts';
import type { z } from 'astro/zod';
import { parseQuery } from './query.ts';
import { jsonError, unauthenticated } from './responses.ts';

/** Data endpoints need the `full` entitlement (Premium and up, trial, admin): docs/architecture.md, "Who sees what". */
const DATA_ENTITLEMENTS: readonly Entitlement[] = ['full', 'admin'];

/** null when the visitor may read price data; otherwise the 401/403 JSON answer. */
export function requireDataAccess(locals: { session?: Session | null | undefined }): Response | null {
  const entitlement: Entitlement = locals.session?.entitlement ?? 'anonymous';
  if (DATA_ENTITLEMENTS.includes(entitlement)) return null;
  return entitlement === 'anonymous' ? unauthenticated() : jsonError(403, 'forbidden', 'Your plan does not include this data.');
}

/** The opening of every data endpoint with a query: entitled visitor (401/403), valid query (400). */
export function readDataQuery<S extends z.ZodType>(
  locals: { session?: Session | null | undefined },
  url: URL,
  schema: S,
): { ok: true; data: z.output<S> } | { ok: false; response: Response } {
  const denied = requireDataAccess(locals);
  if (denied) return { ok: false, response: denied };
  return parseQuery(url, schema);
}
