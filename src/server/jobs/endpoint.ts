/**
 * The one wrapper of every job endpoint under /api/jobs (their paths: JOB_PATHS in
 * src/lib/delivery/paths.ts, public in the access policy because this check is their authority):
 * without JOBS_SECRET the endpoint does not exist (404); with it, only `Authorization: Bearer
 * <JOBS_SECRET>` runs the job (401 otherwise, compared in constant time). A unit test holds
 * every route file under src/pages/api/jobs to it.
 */
import { timingSafeEqual } from 'node:crypto';
import { endpoint, type Endpoint } from '../edge/endpoint.ts';
import { json, jsonError } from '../http/responses.ts';

const bearerMatches = (header: string | null, secret: string): boolean => {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

const made = new WeakSet<Endpoint>();

/** A job endpoint for a secret (null: the endpoint does not exist) running `run`, which answers its report. */
export function jobEndpoint(secret: string | null, run: () => Promise<unknown>): Endpoint {
  // Public in the policy: the bearer secret is its authority.
  const route = endpoint('public', async ({ request }) => {
    if (!secret) return jsonError(404, 'not_found', 'There is no such endpoint.');
    if (!bearerMatches(request.headers.get('authorization'), secret)) {
      return json({ error: { code: 'unauthenticated', message: 'Send Authorization: Bearer <JOBS_SECRET>.' } }, { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    return json(await run());
  });
  made.add(route);
  return route;
}

/** Whether a route handler was made by jobEndpoint (the test of every jobs route). */
export const isJobEndpoint = (route: unknown): boolean => typeof route === 'function' && made.has(route as Endpoint);
