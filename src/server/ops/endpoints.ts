/** Operations' endpoints: the health check a load balancer and whoever is on call read (public). */
import { sessionVerifier } from '../auth/sessions.ts';
import { endpoint } from '../edge/endpoint.ts';
import { createHealthCheck } from '../health.ts';
import { json } from '../http/responses.ts';
import { verifyMail } from '../mail/index.ts';
import { paymentsRuntime } from '../payments/index.ts';
import { auth, store, storeBackend } from '../runtime.ts';

const check = createHealthCheck({
  store,
  authReachable: (now) => sessionVerifier(auth()).reachable(now),
  verifyMail,
  pingPayments: async () => (await paymentsRuntime()).gateway.ping(),
});

/**
 * GET /api/health: 200 when this instance can read its store, 503 when it cannot (the proxy sends
 * traffic elsewhere); each dependency as `ok` or `degraded`. No details of a failure leave the
 * server (they are logged once per outage).
 */
export const health = endpoint('public', async () => {
  const report = await check();
  return json({ ...report, store: storeBackend() }, report.ok ? 200 : 503);
});
