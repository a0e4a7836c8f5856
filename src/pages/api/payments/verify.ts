/** POST /api/payments/verify: the checkout result, verified on the server, grants the plan. */
export { verifyPayment as POST } from '../../../server/payments/endpoints.ts';
