/**
 * The payments runtime of this server: the store and the gateway the configuration asks for
 * (RAZORPAY_KEY_ID + RAZORPAY_KEY_SECRET → Razorpay; otherwise the sandbox), built once.
 * The only payments module that reads `astro:env`.
 */
import {
  DATA_DIR,
  RAZORPAY_KEY_ID,
  RAZORPAY_KEY_SECRET,
  RAZORPAY_WEBHOOK_SECRET,
  SANDBOX_PAYMENT_SECRET,
} from 'astro:env/server';
import { store } from '../runtime.ts';
import { assertSafeMode, paymentModeOf } from './mode.ts';
import { createRazorpayGateway } from './razorpay.ts';
import { createSandboxGateway, sandboxSecret } from './sandbox.ts';
import type { PaymentsRuntime } from './service.ts';

export type { PaymentsRuntime } from './service.ts';

/** `razorpay` with both keys set, else `sandbox` (what the checkout page's policy allows). */
export const paymentMode = paymentModeOf({ RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET });

let current: Promise<PaymentsRuntime> | undefined;

async function fromEnvironment(): Promise<PaymentsRuntime> {
  const mode = assertSafeMode(process.env['HOST'] ?? '127.0.0.1', {
    RAZORPAY_KEY_ID,
    RAZORPAY_KEY_SECRET,
    SITE_URL: process.env['SITE_URL'],
  });
  const gateway =
    mode === 'razorpay'
      ? createRazorpayGateway({ keyId: RAZORPAY_KEY_ID!, keySecret: RAZORPAY_KEY_SECRET!, webhookSecret: RAZORPAY_WEBHOOK_SECRET })
      : createSandboxGateway(sandboxSecret(SANDBOX_PAYMENT_SECRET, DATA_DIR));
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
