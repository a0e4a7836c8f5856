/** POST /api/makePayment `{plan}` (or the legacy `{amount}` in rupees) → a gateway order at the plan's price. */
import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { planForRequest } from '../../lib/subscription.ts';
import { GatewayError } from '../../server/payments/gateway.ts';
import { json, jsonError, readSignedInPost } from '../../server/http/responses.ts';
import { paymentsRuntime } from '../../server/payments/index.ts';
import { describePlan, MERCHANT_NAME, startOrder } from '../../server/payments/service.ts';

const body = z
  .object({
    plan: z.string().trim().min(1).max(40).optional(),
    amount: z.number().positive().max(10_000_000).optional(),
  })
  .refine((b) => b.plan !== undefined || b.amount !== undefined, { message: 'Name a plan.', path: ['plan'] });

export const POST: APIRoute = async ({ request, locals }) => {
  const input = await readSignedInPost(request, locals.session, body);
  if (!input.ok) return input.response;
  const session = input.session;

  const plan = planForRequest(input.data);
  if (!plan) {
    return input.data.plan !== undefined
      ? jsonError(400, 'unknown_plan', 'There is no such plan.', 'plan')
      : jsonError(400, 'unknown_amount', 'The amount is not the price of any plan.', 'amount');
  }
  if (!session.record) return jsonError(409, 'no_user_record', 'Your account is still being set up; try again in a moment.');

  const runtime = await paymentsRuntime();
  try {
    const order = await startOrder(runtime, session.uid, plan);
    return json({
      id: order.id,
      amount: order.amount,
      currency: order.currency,
      key: runtime.gateway.keyId,
      mode: runtime.gateway.mode,
      plan: plan.id,
      name: MERCHANT_NAME,
      description: describePlan(plan),
      prefill: { name: session.record.displayName ?? '', email: session.record.email ?? session.email ?? '', contact: session.record.phone ?? '' },
    });
  } catch (error) {
    if (error instanceof GatewayError) {
      console.error(`[payments] order for ${session.uid} failed: ${error.message}`);
      return jsonError(502, 'gateway_error', error.message);
    }
    throw error;
  }
};
