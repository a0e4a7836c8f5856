/**
 * The payment endpoints: an order at a plan's price, the checkout result verified on the server,
 * the sandbox checkout's buttons (signed in, from our own pages), and Razorpay's webhook (public:
 * its signature is the authority, checked on the raw body before it is parsed).
 */
import { z } from 'astro/zod';
import { isoDateOf, toDisplayDate } from '../../lib/dates.ts';
import { recipientOf } from '../../lib/gst/invoice.ts';
import { formatPaise } from '../../lib/numbers.ts';
import { planForRequest } from '../../lib/subscription.ts';
import { endpoint } from '../edge/endpoint.ts';
import { json, jsonContentTypeError, jsonError, readSignedInPost, readText } from '../http/responses.ts';
import { GatewayError } from './gateway.ts';
import { paymentsRuntime } from './index.ts';
import { applyWebhook, checkPurchase, completeSandbox, describePlan, MERCHANT_NAME, startOrder, verifyCheckout, webhookEventId, webhookSchema } from './service.ts';

/** The buyer's billing details as the checkout form sends them (checked in full by recipientOf). */
const BillingBody = z.object({
  legalName: z.string().max(200),
  address: z.union([z.string().max(600), z.array(z.string().max(200)).max(8)]),
  pin: z.string().max(12),
  stateCode: z.string().max(4),
  gstin: z.string().max(20).nullish(),
});

const OrderBody = z
  .object({
    plan: z.string().trim().min(1).max(40).optional(),
    amount: z.number().positive().max(10_000_000).optional(),
    billing: BillingBody.optional(),
  })
  .refine((b) => b.plan !== undefined || b.amount !== undefined, { message: 'Name a plan.', path: ['plan'] });

/**
 * POST /api/makePayment `{plan, billing?}` (or the legacy `{amount}` in rupees) → a gateway order
 * at the price the server quotes (a renewal or new plan: the plan's price; an upgrade: less the
 * unused days' credit). `billing` (legal name, address, PIN, state, optional GSTIN) is checked and
 * saved for the invoice; without it the details saved before are used, and without either the
 * answer is 400 `billing_required`: every payment gets a GST invoice.
 */
export const makePayment = endpoint('signedIn', async ({ request, locals }) => {
  const input = await readSignedInPost(request, locals.session, OrderBody);
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
  const now = runtime.now();
  const check = checkPurchase(session.record, plan, now);
  if (check.kind === 'cheaper_plan_running')
    return jsonError(409, 'cheaper_than_current', `Your ${check.current.name} plan runs until ${toDisplayDate(isoDateOf(check.until))}: renew it or upgrade, or buy ${plan.name} after it ends.`, 'plan');
  if (check.kind === 'nothing_to_charge')
    return jsonError(409, 'credit_covers_upgrade', `The unused days of your plan are worth more than ${plan.name} costs (${formatPaise(plan.pricePaise)}): write to the desk to switch without a payment.`, 'plan');

  if (input.data.billing) {
    const recipient = recipientOf(input.data.billing);
    if (!recipient.ok) return jsonError(400, 'invalid_billing', recipient.message, `billing.${recipient.field}`);
    const { legalName, address, pin, state, gstin } = recipient.value;
    await runtime.store.saveBillingDetails({ uid: session.uid, legalName, address, pin, stateCode: state.code, gstin, updatedAt: now.toISOString() });
  } else if (!(await runtime.store.findBillingDetails(session.uid))) {
    return jsonError(400, 'billing_required', 'Enter the billing details for your GST invoice.', 'billing.legalName');
  }

  try {
    const order = await startOrder(runtime, session.uid, plan, check.quote);
    return json({
      id: order.id,
      amount: order.amount,
      currency: order.currency,
      key: runtime.gateway.keyId,
      mode: runtime.gateway.mode,
      plan: plan.id,
      purchase: check.quote.kind,
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
});

const id = z.string().trim().min(1).max(100);
const CheckoutResult = z.object({
  razorpay_order_id: id,
  razorpay_payment_id: id,
  razorpay_signature: z.string().trim().min(1).max(200),
});

/** POST /api/payments/verify: the checkout result, verified on the server, grants the plan. */
export const verifyPayment = endpoint('signedIn', async ({ request, locals }) => {
  const input = await readSignedInPost(request, locals.session, CheckoutResult);
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
});

const SandboxChoice = z.object({
  order_id: z.string().trim().min(1).max(100),
  outcome: z.enum(['pay', 'fail']),
});

/**
 * POST /api/payments/sandbox/complete `{order_id, outcome:'pay'|'fail'}`: the sandbox checkout
 * dialog's buttons (sandbox mode only; 404 otherwise). Pay returns the signed result Razorpay
 * Checkout would give its handler; the browser then calls /api/payments/verify as with Razorpay.
 */
export const completeSandboxPayment = endpoint('signedIn', async ({ request, locals }) => {
  const runtime = await paymentsRuntime();
  if (runtime.gateway.mode !== 'sandbox') return jsonError(404, 'not_found', 'There is no sandbox checkout here.');
  const input = await readSignedInPost(request, locals.session, SandboxChoice);
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
});

/**
 * POST /api/payments/webhook: Razorpay's events, the source of truth when the browser never
 * came back. The raw body is checked against the webhook secret before it is parsed.
 */
export const paymentWebhook = endpoint('public', async ({ request }) => {
  // Razorpay posts application/json; anything else is not one of its events.
  const notJson = jsonContentTypeError(request);
  if (notJson) return notJson;
  const body = await readText(request);
  if (!body.ok) return body.response;
  const signature = request.headers.get('x-razorpay-signature');
  if (!signature) return jsonError(400, 'bad_signature', 'The X-Razorpay-Signature header is missing.');

  const runtime = await paymentsRuntime();
  const valid = runtime.gateway.verifyWebhook(body.text, signature);
  if (valid === null) return jsonError(503, 'webhook_not_configured', 'RAZORPAY_WEBHOOK_SECRET is not set.');
  if (!valid) return jsonError(400, 'bad_signature', 'The webhook signature does not verify.');

  let raw: unknown;
  try {
    raw = JSON.parse(body.text);
  } catch {
    return jsonError(400, 'invalid_body', 'The webhook body is not valid JSON.');
  }
  const parsed = webhookSchema.safeParse(raw);
  if (!parsed.success) return jsonError(400, 'invalid_input', parsed.error.issues[0]?.message ?? 'Unexpected webhook body.');

  const eventId = webhookEventId(request.headers.get('x-razorpay-event-id'), parsed.data, body.text);
  const status = await applyWebhook(runtime, parsed.data, eventId);
  return json({ status, event: parsed.data.event, id: eventId });
});
