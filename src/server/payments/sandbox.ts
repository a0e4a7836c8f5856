/**
 * The sandbox gateway (embedded default, no keys): orders are created locally and the local
 * checkout dialog's result is signed with a local secret exactly as Razorpay signs, so the
 * verify and webhook paths run unchanged. Loopback only (see mode.ts).
 */
import { randomBytes } from 'node:crypto';
import { keptSecret } from '../config/keptSecret.ts';
import type { CheckoutResult, CreateOrderInput, GatewayOrder, SandboxGateway } from './gateway.ts';
import { hmacHex, paymentSignature, verifyPaymentSignature, verifyWebhookSignature } from './signature.ts';

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 14 random characters, like Razorpay's ids (`order_Nx2…`). */
export function randomId(prefix: string): string {
  const bytes = randomBytes(14);
  let id = '';
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return `${prefix}${id}`;
}

export const SANDBOX_SECRET_FILE = 'sandbox-payment-secret';

/**
 * The sandbox secret: SANDBOX_PAYMENT_SECRET when given, otherwise a random secret created
 * once and kept in DATA_DIR (so restarts and several processes agree on it).
 */
export const sandboxSecret = (configured: string | undefined, dataDir: string): string => keptSecret(dataDir, SANDBOX_SECRET_FILE, configured);

export function createSandboxGateway(secret: string): SandboxGateway {
  if (!secret) throw new Error('the sandbox gateway needs a secret');
  return {
    mode: 'sandbox',
    keyId: null,

    async createOrder({ amountPaise, currency, receipt }: CreateOrderInput): Promise<GatewayOrder> {
      return { id: randomId('order_sbx_'), amount: amountPaise, currency, receipt };
    },

    verifyPayment(orderId, paymentId, signature) {
      return verifyPaymentSignature(secret, orderId, paymentId, signature);
    },

    verifyWebhook(rawBody, signature) {
      return verifyWebhookSignature(secret, rawBody, signature);
    },

    // In process: nothing to reach.
    async ping() {},

    signPayment(orderId): CheckoutResult {
      const paymentId = randomId('pay_sbx_');
      return { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: paymentSignature(secret, orderId, paymentId) };
    },

    signWebhook(rawBody) {
      return hmacHex(secret, rawBody);
    },
  };
}
