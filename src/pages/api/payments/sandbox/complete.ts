/** POST /api/payments/sandbox/complete `{order_id, outcome}`: the sandbox checkout dialog's buttons (sandbox mode only). */
export { completeSandboxPayment as POST } from '../../../../server/payments/endpoints.ts';
