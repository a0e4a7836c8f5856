import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { assertSafeMode, paymentModeOf } from '../../src/server/payments/mode.ts';
import { createSandboxGateway } from '../../src/server/payments/sandbox.ts';
import { paymentSignature, signaturesMatch, verifyPaymentSignature, verifyWebhookSignature } from '../../src/server/payments/signature.ts';

const require = createRequire(import.meta.url);
const razorpayUtils = require('razorpay/dist/utils/razorpay-utils.js') as {
  validatePaymentVerification(params: { order_id: string; payment_id: string }, signature: string, secret: string): boolean;
  validateWebhookSignature(body: string, signature: string, secret: string): boolean;
};

const SECRET = 'test_key_secret_9f2c';
const ORDER = 'order_Nx2aBcDeFgHiJk';
const PAYMENT = 'pay_Nx2bCdEfGhIjKl';
// Computed here, independently of the code under test: HMAC_SHA256(order_id + "|" + payment_id, secret).
const KNOWN = createHmac('sha256', SECRET).update(`${ORDER}|${PAYMENT}`).digest('hex');

describe('checkout signatures', () => {
  it('signs exactly as Razorpay documents (and as its SDK checks)', () => {
    expect(paymentSignature(SECRET, ORDER, PAYMENT)).toBe(KNOWN);
    expect(razorpayUtils.validatePaymentVerification({ order_id: ORDER, payment_id: PAYMENT }, paymentSignature(SECRET, ORDER, PAYMENT), SECRET)).toBe(true);
  });

  it('accepts the good signature and nothing else', () => {
    expect(verifyPaymentSignature(SECRET, ORDER, PAYMENT, KNOWN)).toBe(true);
    expect(verifyPaymentSignature(SECRET, ORDER, PAYMENT, KNOWN.toUpperCase())).toBe(true);
    expect(verifyPaymentSignature('another secret', ORDER, PAYMENT, KNOWN)).toBe(false);
    expect(verifyPaymentSignature(SECRET, 'order_other', PAYMENT, KNOWN)).toBe(false);
    expect(verifyPaymentSignature(SECRET, ORDER, 'pay_other', KNOWN)).toBe(false);
    const flipped = `${KNOWN.slice(0, -1)}${KNOWN.endsWith('0') ? '1' : '0'}`;
    expect(verifyPaymentSignature(SECRET, ORDER, PAYMENT, flipped)).toBe(false);
    expect(verifyPaymentSignature(SECRET, ORDER, PAYMENT, KNOWN.slice(0, 32))).toBe(false);
    expect(verifyPaymentSignature(SECRET, ORDER, PAYMENT, `${KNOWN}00`)).toBe(false);
    expect(verifyPaymentSignature(SECRET, ORDER, PAYMENT, 'z'.repeat(64))).toBe(false);
    expect(verifyPaymentSignature(SECRET, ORDER, PAYMENT, '')).toBe(false);
  });

  it('compares without throwing on malformed input', () => {
    expect(signaturesMatch('abcd', 'abc')).toBe(false);
    expect(signaturesMatch('abcd', 'ABCD')).toBe(true);
    expect(signaturesMatch('abcd', 'ab-d')).toBe(false);
  });
});

describe('webhook signatures', () => {
  const body = '{"event":"payment.captured","payload":{"payment":{"entity":{"id":"pay_1","order_id":"order_1"}}}}';
  const good = createHmac('sha256', 'whsec').update(body).digest('hex');

  it('checks the raw body, byte for byte', () => {
    expect(verifyWebhookSignature('whsec', body, good)).toBe(true);
    expect(razorpayUtils.validateWebhookSignature(body, good, 'whsec')).toBe(true);
    expect(verifyWebhookSignature('whsec', `${body} `, good)).toBe(false);
    expect(verifyWebhookSignature('whsec', JSON.stringify(JSON.parse(body), null, 1), good)).toBe(false);
    expect(verifyWebhookSignature('other', body, good)).toBe(false);
  });
});

describe('the sandbox gateway', () => {
  it('signs its checkout result so that the Razorpay verification accepts it', async () => {
    const sandbox = createSandboxGateway(SECRET);
    const order = await sandbox.createOrder({ amountPaise: 1_500_000, currency: 'INR', receipt: 'r1', notes: {} });
    expect(order.id).toMatch(/^order_sbx_[A-Za-z0-9]{14}$/);
    expect(order.amount).toBe(1_500_000);
    const result = sandbox.signPayment(order.id);
    expect(result.razorpay_order_id).toBe(order.id);
    expect(result.razorpay_payment_id).toMatch(/^pay_sbx_[A-Za-z0-9]{14}$/);
    expect(result.razorpay_signature).toBe(
      createHmac('sha256', SECRET).update(`${order.id}|${result.razorpay_payment_id}`).digest('hex'),
    );
    expect(sandbox.verifyPayment(order.id, result.razorpay_payment_id, result.razorpay_signature)).toBe(true);
    expect(createSandboxGateway('other secret').verifyPayment(order.id, result.razorpay_payment_id, result.razorpay_signature)).toBe(false);
    expect(sandbox.verifyWebhook('{}', sandbox.signWebhook('{}'))).toBe(true);
  });
});

describe('payment mode and where it may run', () => {
  const real = { RAZORPAY_KEY_ID: 'rzp_test_1', RAZORPAY_KEY_SECRET: 's' };

  it('uses Razorpay only with both keys', () => {
    expect(paymentModeOf({})).toBe('sandbox');
    expect(paymentModeOf({ RAZORPAY_KEY_ID: 'rzp_test_1' })).toBe('sandbox');
    expect(paymentModeOf({ RAZORPAY_KEY_SECRET: 's' })).toBe('sandbox');
    expect(paymentModeOf(real)).toBe('razorpay');
  });

  it('serves the sandbox on loopback only', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.3.2.1']) expect(assertSafeMode(host, {})).toBe('sandbox');
    for (const host of ['0.0.0.0', '192.168.1.4', 'polyindex.in', '::']) expect(() => assertSafeMode(host, {})).toThrow(/sandbox/);
  });

  it('serves Razorpay outside loopback only behind https', () => {
    expect(assertSafeMode('127.0.0.1', real)).toBe('razorpay');
    expect(() => assertSafeMode('0.0.0.0', real)).toThrow(/https/);
    expect(() => assertSafeMode('0.0.0.0', { ...real, SITE_URL: 'http://polyindex.in' })).toThrow(/https/);
    expect(assertSafeMode('0.0.0.0', { ...real, SITE_URL: 'https://polyindex.in' })).toBe('razorpay');
  });
});
