/**
 * Orders, processed webhook events and the grant (../payments.ts), written once over the
 * document driver. Granting pays the order and subscribes its user in one transaction; on
 * Firestore the paid order's guard (`paidOrders/{id}`) makes it happen once (firestore/collections.ts).
 */
import { grantedUserRecord, type FailResult, type GrantResult, type OrderRecord, type OrderStatus, type PaymentStore, type WebhookEventRef } from '../payments.ts';
import { byFields, type DocumentDriver, type DocumentTransaction } from './driver.ts';
import { issueInvoiceIn } from './invoices.ts';

/** True when this webhook event was processed before (nothing to do again). */
async function seen(tx: DocumentTransaction, event: WebhookEventRef | undefined): Promise<boolean> {
  return event ? (await tx.get('paymentEvents', event.id)) !== null : false;
}

/**
 * Remembers a processed event, in the transaction that applied it (a create: a concurrent twin
 * fails and runs again). Events that found no order or no user are not remembered, so the
 * gateway's retry can still apply them later.
 */
function remember(tx: DocumentTransaction, event: WebhookEventRef | undefined, now: Date): void {
  if (event) tx.create('paymentEvents', { id: event.id, type: event.type, receivedAt: now.toISOString() });
}

const STATUSES: readonly OrderStatus[] = ['created', 'paid', 'failed'];

export function createPaymentStore(docs: DocumentDriver): PaymentStore {
  return {
    createOrder(order, now) {
      const at = now.toISOString();
      return docs.createOnce('orders', { ...order, status: 'created', paymentId: null, signature: null, failureReason: null, createdAt: at, updatedAt: at });
    },

    async findOrder(id) {
      return id ? docs.get('orders', id) : null;
    },

    grantOrder({ orderId, paymentId, signature, now, durationDays, event, invoice: issue }) {
      return docs.transact(async (tx): Promise<GrantResult> => {
        if (await seen(tx, event)) return { kind: 'duplicate_event' };
        const order = await tx.get('orders', orderId);
        if (!order) return { kind: 'no_order' };
        const user = await tx.get('users', order.uid);
        if (order.status === 'paid') {
          remember(tx, event, now);
          return { kind: 'already_paid', user, order };
        }
        if (!user) return { kind: 'no_user', order };
        const billing = issue ? await tx.get('billingDetails', order.uid) : null;
        const { user: granted, purchase } = grantedUserRecord(user, order, { paymentId, signature, now, durationDays });
        const paid: OrderRecord = { ...order, status: 'paid', paymentId, signature, failureReason: null, updatedAt: now.toISOString() };
        // Every read is done: the counter's read happens in issueInvoiceIn, before any write lands.
        const invoice = issue && billing ? await issueInvoiceIn(tx, issue, billing, purchase, paid, paymentId, now) : null;
        remember(tx, event, now);
        tx.put('users', granted);
        tx.put('orders', paid);
        return { kind: 'granted', user: granted, order: paid, invoice };
      });
    },

    failOrder({ orderId, paymentId, reason, now, event }) {
      return docs.transact(async (tx): Promise<FailResult> => {
        if (await seen(tx, event)) return { kind: 'duplicate_event' };
        const order = await tx.get('orders', orderId);
        if (!order) return { kind: 'no_order' };
        remember(tx, event, now);
        if (order.status === 'paid') return { kind: 'already_paid', order };
        const failed: OrderRecord = { ...order, status: 'failed', paymentId: paymentId ?? order.paymentId, failureReason: reason, updatedAt: now.toISOString() };
        tx.put('orders', failed);
        return { kind: 'failed', order: failed };
      });
    },

    recordEvent({ id, type }, now) {
      return docs.createOnce('paymentEvents', { id, type, receivedAt: now.toISOString() });
    },

    async listOrdersByUid(uid) {
      if (!uid) return [];
      // Newest first: by creation time, then by creation order (the list comes oldest first).
      return (await docs.list('orders', [{ index: 'uid', value: uid }])).toReversed().toSorted((a, b) => byFields<OrderRecord>('createdAt')(b, a));
    },

    async countOrdersByStatus() {
      const counts = await Promise.all(STATUSES.map((status) => docs.count('orders', [{ index: 'status', value: status }])));
      return Object.fromEntries(STATUSES.map((status, i) => [status, counts[i]!])) as Record<OrderStatus, number>;
    },
  };
}
