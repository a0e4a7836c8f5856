/**
 * The payments runtime of this server: the store and the gateway the configuration asks for
 * (RAZORPAY_KEY_ID + RAZORPAY_KEY_SECRET → Razorpay; otherwise the sandbox), built once.
 * Its settings come from the configuration (src/server/config).
 */
import { config } from '../config/index.ts';
import { store } from '../runtime.ts';
import { assertSafeMode } from './mode.ts';
import { createRazorpayGateway } from './razorpay.ts';
import { createSandboxGateway, sandboxSecret } from './sandbox.ts';
import type { PaymentsRuntime } from './service.ts';

export type { PaymentsRuntime } from './service.ts';

/** `razorpay` with both keys set, else `sandbox` (what the checkout page's policy allows). */
export const paymentMode = config.payments.mode;

let current: Promise<PaymentsRuntime> | undefined;

async function fromEnvironment(): Promise<PaymentsRuntime> {
  const { keyId, keySecret, webhookSecret, sandboxSecret: configuredSecret } = config.payments;
  const mode = assertSafeMode(config.host, { RAZORPAY_KEY_ID: keyId, RAZORPAY_KEY_SECRET: keySecret, SITE_URL: config.siteUrl });
  const gateway =
    mode === 'razorpay'
      ? createRazorpayGateway({ keyId: keyId!, keySecret: keySecret!, webhookSecret })
      : createSandboxGateway(sandboxSecret(configuredSecret, config.dataDir));
  // One store per process: writers queue on its client (see store/sqlite/database.ts).
  return { store: await store(), gateway, now: () => new Date() };
}

/** The runtime, built on first use; a failed build is retried on the next request. */
export function paymentsRuntime(): Promise<PaymentsRuntime> {
  current ??= fromEnvironment().catch((error: unknown) => {
    current = undefined;
    throw error;
  });
  return current;
}

/**
 * Installs a runtime built elsewhere: the server entry when it shares one store, and the
 * integration tests, which pass the real SQLite store and a real gateway.
 */
export function usePaymentsRuntime(runtime: PaymentsRuntime): void {
  current = Promise.resolve(runtime);
}
