/** POST /api/makePayment `{plan}` (or the legacy `{amount}` in rupees) → a gateway order at the plan's price. */
export { makePayment as POST } from '../../server/payments/endpoints.ts';
