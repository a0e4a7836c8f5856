/**
 * The payment use cases behind the endpoints: start an order at the plan's price, verify a
 * checkout result, apply a webhook event, and play the sandbox checkout. The endpoints only
 * read input and shape the answer; every decision is here.
 */
import { createHash } from 'node:crypto';
import { z } from 'astro/zod';
import type { Supplier } from '../../lib/gst/invoice.ts';
import { findPlan, type Plan } from '../../lib/plans.ts';
import { quotePurchase, type PurchaseQuote } from '../../lib/proration.ts';
import { creditNoteFor, invoiceIssue, refundDate } from '../invoices/issue.ts';
import { configuredSupplier } from '../invoices/supplier.ts';
import type { InvoiceStore } from '../store/invoices.ts';
import type { PaymentStore, OrderRecord } from '../store/payments.ts';
import type { UserRecord, UserStore } from '../store/users.ts';
import { isSandbox, type CheckoutResult, type GatewayOrder, type PaymentGateway } from './gateway.ts';
import { sendCreditNote, sendReceipt } from './receipt.ts';
import { randomId } from './sandbox.ts';

export interface PaymentsRuntime {
  readonly store: UserStore & PaymentStore & InvoiceStore;
  readonly gateway: PaymentGateway;
  readonly now: () => Date;
  /** The supplier on invoices; the configured one (INVOICE_*, CONTACT_GSTIN) unless given. */
  readonly supplier?: (() => Supplier) | undefined;
}

export const CURRENCY = 'INR';
export const MERCHANT_NAME = 'PolyIndex';

export const describePlan = (plan: Plan): string => `${MERCHANT_NAME} ${plan.name} plan — ${plan.durationDays / 365 === 1 ? 'one year' : `${plan.durationDays} days`}`;

/**
 * What buying `plan` costs this buyer now (src/lib/proration.ts): the full price for a new plan
 * or a renewal of the same plan, the price less the unused days' credit for an upgrade. A plan
 * cheaper than a running one is not sold until that term ends (it would cut the term short),
 * and an upgrade the credit pays in full has nothing for the gateway to charge.
 */
export type PurchaseCheck =
  | { readonly kind: 'ok'; readonly quote: PurchaseQuote }
  | { readonly kind: 'cheaper_plan_running'; readonly current: Plan; readonly until: Date }
  | { readonly kind: 'nothing_to_charge'; readonly quote: PurchaseQuote };

export function checkPurchase(record: UserRecord | null, plan: Plan, now: Date): PurchaseCheck {
  const quote = quotePurchase(record, plan, now);
  if (quote.kind === 'renewal' && quote.after && quote.after.id !== plan.id) return { kind: 'cheaper_plan_running', current: quote.after, until: quote.startsAt };
  if (quote.chargePaise === 0) return { kind: 'nothing_to_charge', quote };
  return { kind: 'ok', quote };
}

/** Creates the gateway order at the quoted amount and records it as created. */
export async function startOrder(runtime: PaymentsRuntime, uid: string, plan: Plan, quote: PurchaseQuote = quotePurchase(null, plan, runtime.now())): Promise<GatewayOrder> {
  const now = runtime.now();
  // Razorpay caps receipts at 40 characters.
  const receipt = `rcpt_${now.getTime().toString(36)}_${randomId('').slice(0, 8)}`;
  const order = await runtime.gateway.createOrder({
    amountPaise: quote.chargePaise,
    currency: CURRENCY,
    receipt,
    notes: { uid, plan: plan.id, purchase: quote.kind },
  });
  await runtime.store.createOrder({ id: order.id, uid, plan: plan.id, amount: quote.chargePaise, currency: CURRENCY, receipt }, now);
  return order;
}

export type VerifyOutcome =
  | { readonly kind: 'granted' | 'already_paid'; readonly user: UserRecord | null }
  | { readonly kind: 'bad_signature' | 'not_found' | 'forbidden' | 'no_user' };

/** The invoice the grant issues, or none when the supplier settings make no valid supplier (logged: the plan is granted all the same). */
function issueFor(runtime: PaymentsRuntime, now: Date) {
  try {
    return invoiceIssue((runtime.supplier ?? configuredSupplier)(), now);
  } catch (error) {
    console.error('[payments] no invoice can be issued', error);
    return undefined;
  }
}

async function grant(runtime: PaymentsRuntime, order: OrderRecord, paymentId: string, signature: string | null, event?: { id: string; type: string }) {
  const plan = findPlan(order.plan);
  if (!plan) throw new Error(`order ${order.id} names an unknown plan ${order.plan}`);
  const now = runtime.now();
  const result = await runtime.store.grantOrder({ orderId: order.id, paymentId, signature, now, durationDays: plan.durationDays, event, invoice: issueFor(runtime, now) });
  if (result.kind === 'granted') {
    if (!result.invoice) console.warn(`[payments] order ${order.id} was paid without billing details: no invoice issued`);
    try {
      await sendReceipt({ user: result.user, order: result.order, invoice: result.invoice });
    } catch (error) {
      // The plan is granted; a receipt that could not be sent must not undo or fail that.
      console.error('[payments] receipt failed', error);
    }
  }
  return result;
}

/**
 * The browser's checkout result: the signature must verify, the order must exist and belong
 * to this user; then the grant transaction. A replay (order already paid) changes nothing.
 */
export async function verifyCheckout(runtime: PaymentsRuntime, uid: string, result: CheckoutResult): Promise<VerifyOutcome> {
  const { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: signature } = result;
  if (!runtime.gateway.verifyPayment(orderId, paymentId, signature)) return { kind: 'bad_signature' };
  const order = await runtime.store.findOrder(orderId);
  if (!order) return { kind: 'not_found' };
  if (order.uid !== uid) return { kind: 'forbidden' };
  const granted = await grant(runtime, order, paymentId, signature);
  switch (granted.kind) {
    case 'granted':
      return { kind: 'granted', user: granted.user };
    case 'already_paid':
      return { kind: 'already_paid', user: granted.user };
    case 'no_user':
      return { kind: 'no_user' };
    default:
      return { kind: 'not_found' };
  }
}

/**
 * The part of a Razorpay webhook body we read; everything else is ignored. An entity of an
 * unexpected shape reads as absent, so an event we do not handle never fails on its payload.
 */
const entity = <S extends z.ZodRawShape>(shape: S) =>
  z.object({ entity: z.object(shape).loose() }).loose().optional().catch(undefined);
export const webhookSchema = z
  .object({
    event: z.string().min(1),
    payload: z
      .object({
        payment: entity({
          id: z.string().min(1),
          order_id: z.string().nullish(),
          amount: z.number().int().nullish(),
          currency: z.string().nullish(),
          error_description: z.string().nullish(),
        }),
        order: entity({ id: z.string().min(1), amount: z.number().int().nullish() }),
        refund: entity({ id: z.string().min(1), payment_id: z.string().min(1), amount: z.number().int().positive(), notes: z.unknown().optional() }),
      })
      .loose()
      .optional()
      .catch(undefined),
  })
  .loose();
export type WebhookBody = z.output<typeof webhookSchema>;

export type WebhookOutcome =
  | 'granted'
  | 'already_paid'
  | 'failed'
  | 'duplicate'
  | 'ignored'
  | 'unknown_order'
  | 'no_user'
  | 'amount_mismatch'
  | 'credit_note_issued'
  | 'no_invoice';

/**
 * The id that makes an event idempotent: Razorpay's `x-razorpay-event-id` header, else the
 * event type with the payment (or order) it is about — each happens once per payment.
 */
export function webhookEventId(header: string | null, body: WebhookBody, rawBody: string): string {
  if (header?.trim()) return header.trim();
  const subject = body.payload?.payment?.entity.id ?? body.payload?.order?.entity.id;
  return subject ? `${body.event}:${subject}` : `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
}

/**
 * A verified webhook event. `payment.captured` and `order.paid` grant when verify never
 * arrived (a closed tab); `payment.failed` marks the order failed (never a paid one); others
 * are recorded and ignored. Every event applies once, in any order.
 */
export async function applyWebhook(runtime: PaymentsRuntime, body: WebhookBody, eventId: string): Promise<WebhookOutcome> {
  const event = { id: eventId, type: body.event };
  const payment = body.payload?.payment?.entity;
  const now = runtime.now();

  if (body.event === 'payment.captured' || body.event === 'order.paid') {
    const orderId = body.payload?.order?.entity.id ?? payment?.order_id;
    if (!orderId || !payment) {
      console.warn(`[payments] webhook ${eventId}: ${body.event} without a payment and order id, ignored`);
      return (await runtime.store.recordEvent(event, now)) ? 'ignored' : 'duplicate';
    }
    const order = await runtime.store.findOrder(orderId);
    if (!order) return 'unknown_order';
    if (typeof payment.amount === 'number' && payment.amount !== order.amount) {
      console.error(`[payments] webhook ${eventId}: payment ${payment.id} of ${payment.amount} paise does not pay order ${order.id} of ${order.amount}`);
      return (await runtime.store.recordEvent(event, now)) ? 'amount_mismatch' : 'duplicate';
    }
    const result = await grant(runtime, order, payment.id, null, event);
    switch (result.kind) {
      case 'granted':
        return 'granted';
      case 'already_paid':
        return 'already_paid';
      case 'duplicate_event':
        return 'duplicate';
      case 'no_user':
        console.error(`[payments] webhook ${eventId}: order ${order.id} is paid but user ${order.uid} has no record`);
        return 'no_user';
      default:
        return 'unknown_order';
    }
  }

  if (body.event === 'refund.processed') {
    const refund = body.payload?.refund?.entity;
    if (!refund) return (await runtime.store.recordEvent(event, now)) ? 'ignored' : 'duplicate';
    // One credit note per refund, whatever the event id: a replay finds the note already issued.
    const result = await runtime.store.issueCreditNote({
      refundId: refund.id,
      paymentId: refund.payment_id,
      amountPaise: refund.amount,
      date: refundDate(now),
      now,
      document: creditNoteFor(refund.amount, refundDate(now), REFUND_REASON),
    });
    if (result.kind === 'no_invoice') {
      console.warn(`[payments] webhook ${eventId}: refund ${refund.id} of payment ${refund.payment_id} has no invoice to credit`);
      return 'no_invoice';
    }
    await runtime.store.recordEvent(event, now);
    if (result.kind !== 'issued') return 'duplicate';
    try {
      const user = await runtime.store.cachedUser(result.note.uid, { fresh: true });
      if (user) await sendCreditNote({ user, note: result.note });
    } catch (error) {
      // The note is issued and listed on /account; a mail that could not be sent must not fail the webhook.
      console.error('[payments] credit note mail failed', error);
    }
    return 'credit_note_issued';
  }

  if (body.event === 'payment.failed') {
    const orderId = payment?.order_id;
    if (!orderId) return (await runtime.store.recordEvent(event, now)) ? 'ignored' : 'duplicate';
    const result = await runtime.store.failOrder({ orderId, paymentId: payment.id, reason: payment.error_description ?? null, now, event });
    if (result.kind === 'duplicate_event') return 'duplicate';
    if (result.kind === 'no_order') return 'unknown_order';
    return result.kind;
  }

  return (await runtime.store.recordEvent(event, now)) ? 'ignored' : 'duplicate';
}

/** The reason a refund's credit note states (rule 53(1A)). */
export const REFUND_REASON = 'Refund of the subscription payment';

export type SandboxOutcome =
  | { readonly kind: 'paid'; readonly result: CheckoutResult }
  | { readonly kind: 'failed'; readonly orderId: string; readonly paymentId: string; readonly reason: string }
  | { readonly kind: 'unavailable' | 'not_found' | 'forbidden' };

export const SANDBOX_FAILURE_REASON = 'Payment declined in the sandbox checkout';

/**
 * The sandbox dialog's Pay and Fail buttons, for the order's owner: Pay returns the result
 * Razorpay Checkout would hand its handler, signed with the sandbox secret; Fail marks the
 * order failed as Razorpay's `payment.failed` webhook would.
 */
export async function completeSandbox(runtime: PaymentsRuntime, uid: string, orderId: string, outcome: 'pay' | 'fail'): Promise<SandboxOutcome> {
  const gateway = runtime.gateway;
  if (!isSandbox(gateway)) return { kind: 'unavailable' };
  const order = await runtime.store.findOrder(orderId);
  if (!order) return { kind: 'not_found' };
  if (order.uid !== uid) return { kind: 'forbidden' };
  if (outcome === 'pay') return { kind: 'paid', result: gateway.signPayment(order.id) };
  const paymentId = randomId('pay_sbx_');
  await runtime.store.failOrder({ orderId: order.id, paymentId, reason: SANDBOX_FAILURE_REASON, now: runtime.now() });
  return { kind: 'failed', orderId: order.id, paymentId, reason: SANDBOX_FAILURE_REASON };
}
