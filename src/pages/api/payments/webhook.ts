/** POST /api/payments/webhook: Razorpay's events, checked against the webhook secret before they are read. */
export { paymentWebhook as POST } from '../../../server/payments/endpoints.ts';
