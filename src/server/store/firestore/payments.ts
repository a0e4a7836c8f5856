/**
 * Firestore adapter of the payment store: `orders/{orderId}` (the OrderRecord's fields, plus
 * `_seq` for creation order), `paymentEvents/{eventId}` (processed webhook events) and
 * `paidOrders/{orderId}` — the guard created as the first write of the grant that pays an order,
 * so an order can never be granted twice, even where transactions are not isolated.
 */
import type { DocumentData, Firestore, Transaction } from 'firebase-admin/firestore';
import { grantedUserRecord, type FailResult, type GrantResult, type OrderRecord, type OrderStatus, type PaymentStore, type WebhookEventRef } from '../payments.ts';
import { createOnce, docId, notifyingAfter, sequenceKey, transact, usableId } from './database.ts';
import { readUserIn, writeUserChanges } from './users.ts';

export const ORDERS = 'orders';
export const PAYMENT_EVENTS = 'paymentEvents';
export const PAID_ORDERS = 'paidOrders';

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

export function orderOf(data: DocumentData): OrderRecord {
  return {
    id: String(data['id']),
    uid: String(data['uid']),
    plan: String(data['plan']),
    amount: Number(data['amount']),
    currency: String(data['currency']),
    receipt: String(data['receipt']),
    status: String(data['status']) as OrderStatus,
    paymentId: text(data['paymentId']),
    signature: text(data['signature']),
    failureReason: text(data['failureReason']),
    createdAt: String(data['createdAt']),
    updatedAt: String(data['updatedAt']),
  };
}

/** The whole order document (always the same fields, so a plain set replaces it everywhere). */
export const orderDocOf = (order: OrderRecord, seq: string): Record<string, unknown> => ({ ...order, _seq: seq });

/** `usersWritten` is told when a grant (which writes the user record) settles: the record cache. */
export function createFirestorePaymentStore(db: Firestore, usersWritten: () => void = () => undefined): PaymentStore {
  const granting = notifyingAfter(usersWritten);
  const orderRef = (id: string) => db.collection(ORDERS).doc(docId(id));
  const eventRef = (id: string) => db.collection(PAYMENT_EVENTS).doc(docId(id));

  async function readOrder(tx: Transaction, id: string): Promise<{ order: OrderRecord; seq: string } | null> {
    if (!usableId(id)) return null;
    const snapshot = await tx.get(orderRef(id));
    return snapshot.exists ? { order: orderOf(snapshot.data()!), seq: String(snapshot.get('_seq') ?? '') } : null;
  }

  async function seen(tx: Transaction, event: WebhookEventRef | undefined): Promise<boolean> {
    // An event id no document can have was never recorded (and recording it will refuse).
    return event && usableId(event.id) ? (await tx.get(eventRef(event.id))).exists : false;
  }

  /** Remembers a processed event: a create(), so a concurrent twin fails and runs again. */
  const remember = (tx: Transaction, event: WebhookEventRef | undefined, now: Date): void => {
    if (event) tx.create(eventRef(event.id), { id: event.id, type: event.type, receivedAt: now.toISOString() });
  };

  return {
    async createOrder(order, now) {
      const at = now.toISOString();
      const record: OrderRecord = { ...order, status: 'created', paymentId: null, signature: null, failureReason: null, createdAt: at, updatedAt: at };
      return createOnce(db, `${ORDERS}/${docId(order.id)}`, orderDocOf(record, sequenceKey(now.getTime())));
    },

    async findOrder(id) {
      if (!usableId(id)) return null;
      const snapshot = await orderRef(id).get();
      return snapshot.exists ? orderOf(snapshot.data()!) : null;
    },

    grantOrder({ orderId, paymentId, signature, now, durationDays, event }): Promise<GrantResult> {
      return granting(transact(db, async (tx): Promise<GrantResult> => {
        if (await seen(tx, event)) return { kind: 'duplicate_event' };
        const found = await readOrder(tx, orderId);
        if (!found) return { kind: 'no_order' };
        const { order, seq } = found;
        const stored = await readUserIn(db, tx, order.uid);
        const user = stored?.record ?? null;
        if (order.status === 'paid') {
          remember(tx, event, now);
          return { kind: 'already_paid', user, order };
        }
        if (!stored || !user) return { kind: 'no_user', order };

        const at = now.toISOString();
        const granted = grantedUserRecord(user, order, { paymentId, signature, now, durationDays });
        const paid: OrderRecord = { ...order, status: 'paid', paymentId, signature, failureReason: null, updatedAt: at };
        // Guards first: a commit that meets an existing guard writes nothing before it.
        tx.create(db.collection(PAID_ORDERS).doc(docId(order.id)), { orderId: order.id, paidAt: at });
        remember(tx, event, now);
        writeUserChanges(db, tx, stored, granted);
        tx.set(orderRef(order.id), orderDocOf(paid, seq));
        return { kind: 'granted', user: granted, order: paid };
      }));
    },

    failOrder({ orderId, paymentId, reason, now, event }): Promise<FailResult> {
      return transact(db, async (tx): Promise<FailResult> => {
        if (await seen(tx, event)) return { kind: 'duplicate_event' };
        const found = await readOrder(tx, orderId);
        if (!found) return { kind: 'no_order' };
        const { order, seq } = found;
        remember(tx, event, now);
        if (order.status === 'paid') return { kind: 'already_paid', order };
        const failed: OrderRecord = {
          ...order,
          status: 'failed',
          paymentId: paymentId ?? order.paymentId,
          failureReason: reason,
          updatedAt: now.toISOString(),
        };
        tx.set(orderRef(order.id), orderDocOf(failed, seq));
        return { kind: 'failed', order: failed };
      });
    },

    async recordEvent({ id, type }, now) {
      return createOnce(db, `${PAYMENT_EVENTS}/${docId(id)}`, { id, type, receivedAt: now.toISOString() });
    },

    async listOrdersByUid(uid) {
      if (!uid) return [];
      // One user's orders are few: sorted here, so no composite index is needed.
      const snapshot = await db.collection(ORDERS).where('uid', '==', uid).get();
      return snapshot.docs
        .toSorted((a, b) => String(b.get('createdAt')).localeCompare(String(a.get('createdAt'))) || String(b.get('_seq') ?? '').localeCompare(String(a.get('_seq') ?? '')))
        .map((doc) => orderOf(doc.data()));
    },

    async countOrdersByStatus() {
      const statuses: OrderStatus[] = ['created', 'paid', 'failed'];
      const counts = await Promise.all(statuses.map((status) => db.collection(ORDERS).where('status', '==', status).count().get()));
      return Object.fromEntries(statuses.map((status, i) => [status, counts[i]!.data().count])) as Record<OrderStatus, number>;
    },
  };
}
