/** Razorpay's signatures: HMAC-SHA256 in hex, compared in constant time. */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const hmacHex = (secret: string, message: string): string => createHmac('sha256', secret).update(message).digest('hex');

/** Constant-time comparison of two hex signatures; false for anything malformed. */
export function signaturesMatch(expectedHex: string, givenHex: string): boolean {
  if (!/^[0-9a-f]+$/i.test(givenHex) || givenHex.length !== expectedHex.length) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(givenHex.toLowerCase(), 'hex'));
}

/** The checkout signature: `HMAC_SHA256(order_id + "|" + payment_id, secret)`. */
export const paymentSignature = (secret: string, orderId: string, paymentId: string): string =>
  hmacHex(secret, `${orderId}|${paymentId}`);

export const verifyPaymentSignature = (secret: string, orderId: string, paymentId: string, signature: string): boolean =>
  signaturesMatch(paymentSignature(secret, orderId, paymentId), signature);

/** The webhook signature: HMAC of the raw request body, exactly as received. */
export const verifyWebhookSignature = (secret: string, rawBody: string, signature: string): boolean =>
  signaturesMatch(hmacHex(secret, rawBody), signature);
