/**
 * The payment gateway port: create an order, verify a checkout signature, verify a webhook.
 * Two adapters: the `razorpay` SDK (real) and the sandbox (embedded default, local secret).
 * Neither imports `astro:*`; configuration comes in as parameters.
 */

export type PaymentMode = 'razorpay' | 'sandbox';

export interface CreateOrderInput {
  /** In paise, computed on the server from the plan table. */
  readonly amountPaise: number;
  readonly currency: 'INR';
  readonly receipt: string;
  readonly notes: Readonly<Record<string, string>>;
}

export interface GatewayOrder {
  readonly id: string;
  readonly amount: number;
  readonly currency: string;
  readonly receipt: string;
}

import type { CheckoutResult } from '../../lib/checkout.ts';

export type { CheckoutResult };

export interface PaymentGateway {
  readonly mode: PaymentMode;
  /** The public key id Checkout needs; null in the sandbox. */
  readonly keyId: string | null;
  /** Throws a GatewayError when the gateway refuses or does not answer. */
  createOrder(input: CreateOrderInput): Promise<GatewayOrder>;
  /** `HMAC_SHA256(order_id + "|" + payment_id, key secret)`, compared in constant time. */
  verifyPayment(orderId: string, paymentId: string, signature: string): boolean;
  /** HMAC of the raw body against the webhook secret; null when no webhook secret is configured. */
  verifyWebhook(rawBody: string, signature: string): boolean | null;
  /** For the health check: resolves when the gateway answers an authenticated read; GatewayError otherwise. */
  ping(): Promise<void>;
}

/** The sandbox also plays Razorpay's part: it signs the checkout result and webhook bodies. */
export interface SandboxGateway extends PaymentGateway {
  readonly mode: 'sandbox';
  signPayment(orderId: string): CheckoutResult;
  signWebhook(rawBody: string): string;
}

export const isSandbox = (gateway: PaymentGateway): gateway is SandboxGateway => gateway.mode === 'sandbox';

/** The gateway refused the request or did not answer: the endpoint answers 502. */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  constructor(
    message: string,
    /** The gateway's own error code (`BAD_REQUEST_ERROR`, `timeout`, `network`). */
    readonly gatewayCode: string,
    /** The gateway's HTTP status, when it answered. */
    readonly status: number | null,
  ) {
    super(message);
  }
}
