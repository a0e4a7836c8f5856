/**
 * Which gateway runs, and where it may run. Erasable TypeScript only, no `astro:*`: the start
 * script imports it directly (scripts/lib/payment-mode.mjs) to refuse an unsafe start.
 */
import { isLoopbackHost } from '../../lib/modes.ts';
import type { PaymentMode } from './gateway.ts';

export interface PaymentEnv {
  readonly RAZORPAY_KEY_ID?: string | undefined;
  readonly RAZORPAY_KEY_SECRET?: string | undefined;
  /** The public origin; a real gateway outside loopback needs it to be https. */
  readonly SITE_URL?: string | undefined;
}

/** Both Razorpay keys set → the real gateway; otherwise the sandbox. */
export const paymentModeOf = (env: PaymentEnv): PaymentMode =>
  env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET ? 'razorpay' : 'sandbox';


/**
 * Throws unless payments are safe on `host`: the sandbox signs with a local secret and its
 * dialog grants plans for free, so it serves loopback only; the real gateway outside loopback
 * needs an https SITE_URL (Checkout and the session cookie must not travel in clear).
 */
export function assertSafeMode(host: string, env: PaymentEnv): PaymentMode {
  const mode = paymentModeOf(env);
  if (isLoopbackHost(host)) return mode;
  if (mode === 'sandbox') {
    throw new Error(
      `Refusing to serve sandbox payments on HOST=${host}: the sandbox grants plans without money and serves loopback only. ` +
        'Set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET, or HOST=127.0.0.1.',
    );
  }
  if (!env.SITE_URL?.startsWith('https://')) {
    throw new Error(`Refusing to serve Razorpay payments on HOST=${host} without an https SITE_URL (got ${env.SITE_URL ?? 'none'}).`);
  }
  return mode;
}
