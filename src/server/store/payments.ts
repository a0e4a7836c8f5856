/**
 * The `payments` part of the Store port: every order and its state (created → paid | failed),
 * the webhook events already processed, and the grant that turns a paid order into a
 * subscription on the user record in one transaction.
 */
import { findPlan } from '../../lib/plans.ts';
import { quotePurchase } from '../../lib/proration.ts';
import { expiryAfterPurchase } from '../../lib/subscription.ts';
import type { InvoiceIssue, InvoiceRecord, PurchaseTerms } from './invoices.ts';
import type { UserRecord } from './users.ts';

export type OrderStatus = 'created' | 'paid' | 'failed';

export interface OrderRecord {
  /** The gateway's order id (`order_…`, `order_sbx_…` in the sandbox). */
  readonly id: string;
  readonly uid: string;
  readonly plan: string;
  /** In paise, as computed on the server from the plan table. */
  readonly amount: number;
  readonly currency: string;
  readonly receipt: string;
  readonly status: OrderStatus;
  readonly paymentId: string | null;
  readonly signature: string | null;
  /** Why a payment on it failed, as the gateway said. */
  readonly failureReason: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A processed webhook event. */
export interface PaymentEventRecord {
  readonly id: string;
  readonly type: string;
  /** ISO instant. */
  readonly receivedAt: string;
}

export type NewOrder = Pick<OrderRecord, 'id' | 'uid' | 'plan' | 'amount' | 'currency' | 'receipt'>;

export interface GrantInput {
  readonly orderId: string;
  readonly paymentId: string;
  /** The checkout signature (verify path); null when a webhook grants. */
  readonly signature: string | null;
  readonly now: Date;
  /** Plan duration in days (from the plan table). */
  readonly durationDays: number;
  /** When set, the grant runs only if this webhook event was not processed before. */
  readonly event?: WebhookEventRef | undefined;
  /**
   * Issues the order's GST tax invoice in the grant's transaction when the buyer has billing
   * details (../invoices.ts): numbered from the financial year's counter, once per order.
   */
  readonly invoice?: InvoiceIssue | undefined;
}

/** A webhook event, by the id that makes it idempotent and its type (`payment.captured` …). */
export interface WebhookEventRef {
  readonly id: string;
  readonly type: string;
}

export type GrantResult =
  | { readonly kind: 'granted'; readonly user: UserRecord; readonly order: OrderRecord; readonly invoice: InvoiceRecord | null }
  /** The order was already paid: nothing changed (a replay, or the webhook after verify). */
  | { readonly kind: 'already_paid'; readonly user: UserRecord | null; readonly order: OrderRecord }
  | { readonly kind: 'duplicate_event' }
  | { readonly kind: 'no_order' }
  | { readonly kind: 'no_user'; readonly order: OrderRecord };

export interface FailInput {
  readonly orderId: string;
  readonly paymentId: string | null;
  readonly reason: string | null;
  readonly now: Date;
  readonly event?: WebhookEventRef | undefined;
}

export type FailResult =
  | { readonly kind: 'failed'; readonly order: OrderRecord }
  /** A paid order is never downgraded by a late failure of another attempt. */
  | { readonly kind: 'already_paid'; readonly order: OrderRecord }
  | { readonly kind: 'duplicate_event' }
  | { readonly kind: 'no_order' };

export interface PaymentStore {
  /** Records a created order; false when an order with this id exists (nothing changed). */
  createOrder(order: NewOrder, now: Date): Promise<boolean>;
  findOrder(id: string): Promise<OrderRecord | null>;
  /**
   * In one transaction: the user record gets subscribed, plan, subscriptionAmount, paymentId,
   * orderId, signature, subscribedAt and expiresAt (renewals extend from the later of now and
   * the old expiry) and the order becomes paid. An order already paid changes nothing.
   */
  grantOrder(input: GrantInput): Promise<GrantResult>;
  /** Marks the order failed unless it is paid. */
  failOrder(input: FailInput): Promise<FailResult>;
  /** Records a webhook event that needs no other effect; false when it was seen before. */
  recordEvent(event: WebhookEventRef, now: Date): Promise<boolean>;
  /** One user's orders, newest first. */
  listOrdersByUid(uid: string): Promise<OrderRecord[]>;
  /** How many orders are in each state (every state present, 0 when none). */
  countOrdersByStatus(): Promise<Record<OrderStatus, number>>;
}

/**
 * The user record a grant writes (every adapter, in the transaction that pays the order) and the
 * term it bought: subscribed on the order's plan, the payment's ids, and the new expiry from the
 * proration quote (src/lib/proration.ts): a new plan or an upgrade runs a year from now, a
 * renewal a year from the current end. A plan the table does not know runs `durationDays` from
 * the later of now and the old expiry.
 */
export function grantedUserRecord(user: UserRecord, order: OrderRecord, { paymentId, signature, now, durationDays }: Pick<GrantInput, 'paymentId' | 'signature' | 'now' | 'durationDays'>): { user: UserRecord; purchase: PurchaseTerms } {
  const planOfOrder = findPlan(order.plan);
  const quote = planOfOrder ? quotePurchase(user, planOfOrder, now) : null;
  const expiresAt = quote ? quote.endsAt.toISOString() : expiryAfterPurchase(user, durationDays, now);
  const purchase: PurchaseTerms = {
    kind: quote?.kind ?? 'new',
    fromPlan: quote?.kind === 'upgrade' ? quote.from.id : null,
    // What the buyer was credited is what the plan costs less what the order charged.
    creditPaise: quote?.kind === 'upgrade' ? Math.max(0, quote.plan.pricePaise - order.amount) : 0,
    startsAt: quote ? quote.startsAt.toISOString() : now.toISOString(),
    endsAt: expiresAt,
  };
  return {
    purchase,
    user: {
      ...user,
      uid: order.uid,
      subscribed: true,
      plan: order.plan,
      // Rupees, as the legacy record stored the amount the buyer paid.
      subscriptionAmount: order.amount / 100,
      paymentId,
      orderId: order.id,
      signature,
      subscribedAt: now.toISOString(),
      expiresAt,
    },
  };
}
