/**
 * Defence in depth for data endpoints: the middleware already answers 401/403 from the access
 * policy before an endpoint runs; each data endpoint asks again here, from the same facts.
 */
import type { Entitlement } from '../../lib/access/policy.ts';
import type { Session } from '../auth/session.ts';
import { jsonError, unauthenticated } from './responses.ts';

/** Data endpoints need the `full` entitlement (Premium and up, trial, admin): DESIGN §1. */
const DATA_ENTITLEMENTS: readonly Entitlement[] = ['full', 'admin'];

/** null when the visitor may read price data; otherwise the 401/403 JSON answer. */
export function requireDataAccess(locals: { session?: Session | null | undefined }): Response | null {
  const entitlement: Entitlement = locals.session?.entitlement ?? 'anonymous';
  if (DATA_ENTITLEMENTS.includes(entitlement)) return null;
  return entitlement === 'anonymous' ? unauthenticated() : jsonError(403, 'forbidden', 'Your plan does not include this data.');
}
