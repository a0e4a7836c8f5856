/** POST /api/payments/verify: the checkout result, verified on the server, grants the plan. */
import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { json, jsonError, readSignedInPost } from '../../../server/http/responses.ts';
import { paymentsRuntime } from '../../../server/payments/index.ts';
import { verifyCheckout } from '../../../server/payments/service.ts';

const id = z.string().trim().min(1).max(100);
const body = z.object({
  razorpay_order_id: id,
  razorpay_payment_id: id,
  razorpay_signature: z.string().trim().min(1).max(200),
});

export const POST: APIRoute = async ({ request, locals }) => {
  const input = await readSignedInPost(request, locals.session, body);
  if (!input.ok) return input.response;
  const session = input.session;

  const outcome = await verifyCheckout(await paymentsRuntime(), session.uid, input.data);
  switch (outcome.kind) {
    case 'granted':
    case 'already_paid':
      return json({ user: outcome.user, status: outcome.kind });
    case 'bad_signature':
      return jsonError(400, 'bad_signature', 'The payment signature does not verify.', 'razorpay_signature');
    case 'not_found':
      return jsonError(404, 'unknown_order', 'There is no such order.', 'razorpay_order_id');
    case 'forbidden':
      return jsonError(403, 'forbidden', 'This order belongs to another account.', 'razorpay_order_id');
    case 'no_user':
      return jsonError(409, 'no_user_record', 'Your account record is missing; contact support.');
  }
};
