import { describe, expect, it } from 'vitest';
import { checkoutOptions, errorMessage, isCheckoutResult, isOrderResponse, PAYMENT_FAILED_MESSAGE, SDK_FAILED_MESSAGE, type OrderResponse } from '../../src/lib/checkout.ts';

const order: OrderResponse = {
  id: 'order_Nx2aBcDeFgHiJk',
  amount: 1_500_000,
  currency: 'INR',
  key: 'rzp_test_abc',
  mode: 'razorpay',
  plan: 'Premium',
  name: 'PolyIndex',
  description: 'PolyIndex Premium plan — one year',
  prefill: { name: 'Asha', email: 'asha@example.test', contact: '+919800000000' },
};

describe('Razorpay Checkout options', () => {
  it('carry the key, the server-made order and amount, name, description and prefill', () => {
    expect(checkoutOptions(order)).toMatchObject({
      key: 'rzp_test_abc',
      amount: 1_500_000,
      currency: 'INR',
      order_id: 'order_Nx2aBcDeFgHiJk',
      name: 'PolyIndex',
      description: 'PolyIndex Premium plan — one year',
      prefill: { name: 'Asha', email: 'asha@example.test', contact: '+919800000000' },
    });
  });

  it('keeps the legacy messages word for word', () => {
    expect(SDK_FAILED_MESSAGE).toBe('Razorpay SDK Failed to load');
    expect(PAYMENT_FAILED_MESSAGE).toBe('Payment failed. Please try again. Contact support for help');
  });
});

describe('answer shapes', () => {
  it('recognises orders, checkout results and error messages', () => {
    expect(isOrderResponse(order)).toBe(true);
    expect(isOrderResponse({ ...order, mode: 'other' })).toBe(false);
    expect(isOrderResponse({ error: { code: 'x' } })).toBe(false);
    expect(isOrderResponse(null)).toBe(false);
    expect(isCheckoutResult({ razorpay_order_id: 'o', razorpay_payment_id: 'p', razorpay_signature: 's' })).toBe(true);
    expect(isCheckoutResult({ razorpay_order_id: 'o', razorpay_payment_id: 'p' })).toBe(false);
    expect(errorMessage({ error: { code: 'c', message: 'No such plan.' } }, 'fallback')).toBe('No such plan.');
    expect(errorMessage('oops', 'fallback')).toBe('fallback');
  });
});
