/**
 * POST /api/payments/sandbox/complete `{order_id, outcome:'pay'|'fail'}`: the sandbox checkout
 * dialog's buttons (sandbox mode only; 404 otherwise). Pay returns the signed result Razorpay
 * Checkout would give its handler; the browser then calls /api/payments/verify as with Razorpay.
 */
import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { json, jsonError, readSignedInPost } from '../../../../server/http/responses.ts';
import { paymentsRuntime } from '../../../../server/payments/index.ts';
import { completeSandbox } from '../../../../server/payments/service.ts';

const body = z.object({
  order_id: z.string().trim().min(1).max(100),
  outcome: z.enum(['pay', 'fail']),
});

export const POST: APIRoute = async ({ request, locals }) => {
  const runtime = await paymentsRuntime();
  if (runtime.gateway.mode !== 'sandbox') return jsonError(404, 'not_found', 'There is no sandbox checkout here.');
  const input = await readSignedInPost(request, locals.session, body);
  if (!input.ok) return input.response;
  const session = input.session;

  const outcome = await completeSandbox(runtime, session.uid, input.data.order_id, input.data.outcome);
  switch (outcome.kind) {
    case 'paid':
      return json(outcome.result);
    case 'failed':
      // The shape Razorpay hands a `payment.failed` handler.
      return json({
        status: 'failed',
        error: {
          code: 'BAD_REQUEST_ERROR',
          description: 'Payment failed',
          source: 'customer',
          step: 'payment_authorization',
          reason: outcome.reason,
          metadata: { order_id: outcome.orderId, payment_id: outcome.paymentId },
        },
      });
    case 'unavailable':
    case 'not_found':
      return jsonError(404, 'unknown_order', 'There is no such order.', 'order_id');
    case 'forbidden':
      return jsonError(403, 'forbidden', 'This order belongs to another account.', 'order_id');
  }
};
