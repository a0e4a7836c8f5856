import type { APIRoute } from 'astro';
import { sessionVerifier } from '../../server/auth/sessions.ts';
import { createHealthCheck } from '../../server/health.ts';
import { json } from '../../server/http/responses.ts';
import { verifyMail } from '../../server/mail/index.ts';
import { paymentsRuntime } from '../../server/payments/index.ts';
import { auth, store, storeBackend } from '../../server/runtime.ts';

const check = createHealthCheck({
  store,
  authReachable: (now) => sessionVerifier(auth()).reachable(now),
  verifyMail,
  pingPayments: async () => (await paymentsRuntime()).gateway.ping(),
});

/**
 * For a load balancer and whoever is on call: 200 when this instance can read its store, 503
 * when it cannot (the proxy sends traffic elsewhere); each dependency as `ok` or `degraded`.
 * No details of a failure leave the server (they are logged once per outage).
 */
export const GET: APIRoute = async () => {
  const report = await check();
  return json({ ...report, store: storeBackend() }, report.ok ? 200 : 503);
};
