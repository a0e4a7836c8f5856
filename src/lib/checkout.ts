/**
 * The browser side of a payment, pure: what /api/makePayment answers, the Razorpay Checkout
 * options built from it, and the messages the buyer sees.
 */

export const CHECKOUT_SCRIPT_URL = 'https://checkout.razorpay.com/v1/checkout.js';
export const SDK_FAILED_MESSAGE = 'Razorpay SDK Failed to load';
export const PAYMENT_FAILED_MESSAGE = 'Payment failed. Please try again. Contact support for help';

/** The billing details for a GST invoice as the checkout form holds them (the address one line per line). */
export interface BillingForm {
  readonly legalName: string;
  readonly address: string;
  readonly pin: string;
  readonly stateCode: string;
  readonly gstin: string;
}

/** The answer of POST /api/makePayment. */
export interface OrderResponse {
  readonly id: string;
  /** Paise. */
  readonly amount: number;
  readonly currency: string;
  /** Razorpay's public key id; null in the sandbox. */
  readonly key: string | null;
  readonly mode: 'razorpay' | 'sandbox';
  readonly plan: string;
  readonly name: string;
  readonly description: string;
  readonly prefill: { readonly name: string; readonly email: string; readonly contact: string };
}

/** What Checkout hands its `handler` after a successful payment. */
export interface CheckoutResult {
  readonly razorpay_order_id: string;
  readonly razorpay_payment_id: string;
  readonly razorpay_signature: string;
}

/** Razorpay Checkout's options for an order (the handlers are added by the caller). */
export function checkoutOptions(order: OrderResponse) {
  return {
    key: order.key ?? '',
    amount: order.amount,
    currency: order.currency,
    order_id: order.id,
    name: order.name,
    description: order.description,
    prefill: { ...order.prefill },
    notes: { plan: order.plan },
    theme: { color: '#0b2545' },
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** True when a JSON answer has the shape of an order. */
export function isOrderResponse(value: unknown): value is OrderResponse {
  return (
    isRecord(value) &&
    typeof value['id'] === 'string' &&
    typeof value['amount'] === 'number' &&
    typeof value['currency'] === 'string' &&
    (value['mode'] === 'razorpay' || value['mode'] === 'sandbox')
  );
}

/** True when a JSON answer is a signed checkout result. */
export function isCheckoutResult(value: unknown): value is CheckoutResult {
  return (
    isRecord(value) &&
    typeof value['razorpay_order_id'] === 'string' &&
    typeof value['razorpay_payment_id'] === 'string' &&
    typeof value['razorpay_signature'] === 'string'
  );
}

/** The message of an `{error:{message}}` answer, or a fallback. */
export function errorMessage(value: unknown, fallback: string): string {
  const error = isRecord(value) ? value['error'] : undefined;
  return isRecord(error) && typeof error['message'] === 'string' ? error['message'] : fallback;
}
