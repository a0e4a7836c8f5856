/** SQLite adapter of the payment store: orders, processed webhook events, the grant transaction. */
import type { Client, Row, Transaction } from '@libsql/client';
import { grantedUserRecord, type FailResult, type GrantResult, type OrderRecord, type OrderStatus, type PaymentStore, type WebhookEventRef } from '../payments.ts';
import type { UserRecord } from '../users.ts';
import { inTransaction, notifyingAfter, withWriteLock, type Migration } from './database.ts';

export const paymentMigrations: readonly Migration[] = [
  {
    id: 'payments-001',
    statements: [
      `CREATE TABLE orders (
         id TEXT PRIMARY KEY,
         uid TEXT NOT NULL,
         plan TEXT NOT NULL,
         amount INTEGER NOT NULL CHECK (amount > 0),
         currency TEXT NOT NULL,
         receipt TEXT NOT NULL,
         status TEXT NOT NULL CHECK (status IN ('created', 'paid', 'failed')),
         payment_id TEXT,
         signature TEXT,
         failure_reason TEXT,
         created_at TEXT NOT NULL,
         updated_at TEXT NOT NULL
       )`,
      'CREATE INDEX orders_uid ON orders (uid)',
      `CREATE TABLE payment_events (
         id TEXT PRIMARY KEY,
         type TEXT NOT NULL,
         received_at TEXT NOT NULL
       )`,
    ],
  },
];

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

export function orderOf(row: Row): OrderRecord {
  return {
    id: String(row['id']),
    uid: String(row['uid']),
    plan: String(row['plan']),
    amount: Number(row['amount']),
    currency: String(row['currency']),
    receipt: String(row['receipt']),
    status: String(row['status']) as OrderStatus,
    paymentId: text(row['payment_id']),
    signature: text(row['signature']),
    failureReason: text(row['failure_reason']),
    createdAt: String(row['created_at']),
    updatedAt: String(row['updated_at']),
  };
}

async function orderIn(tx: Transaction | Client, id: string): Promise<OrderRecord | null> {
  const result = await tx.execute({ sql: 'SELECT * FROM orders WHERE id = ?', args: [id] });
  const row = result.rows[0];
  return row ? orderOf(row) : null;
}

async function userIn(tx: Transaction, uid: string): Promise<UserRecord | null> {
  const result = await tx.execute({ sql: 'SELECT record FROM users WHERE uid = ?', args: [uid] });
  const row = result.rows[0];
  return row ? (JSON.parse(String(row['record'])) as UserRecord) : null;
}

/** True when this webhook event was processed before (nothing to do again). */
async function seen(tx: Transaction, event: WebhookEventRef | undefined): Promise<boolean> {
  if (!event) return false;
  const result = await tx.execute({ sql: 'SELECT 1 FROM payment_events WHERE id = ?', args: [event.id] });
  return result.rows.length > 0;
}

/**
 * Remembers a processed event, in the transaction that applied it. Events that found no order
 * or no user are not remembered, so the gateway's retry can still apply them later.
 */
async function remember(tx: Transaction, event: WebhookEventRef | undefined, now: Date): Promise<void> {
  if (!event) return;
  await tx.execute({
    sql: 'INSERT INTO payment_events (id, type, received_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
    args: [event.id, event.type, now.toISOString()],
  });
}

/** `usersWritten` is told when a grant (which writes the user record) settles: the record cache. */
export function createSqlitePaymentStore(client: Client, usersWritten: () => void = () => undefined): PaymentStore {
  const granting = notifyingAfter(usersWritten);
  return {
    async createOrder(order, now) {
      const at = now.toISOString();
      const result = await withWriteLock(client, () => client.execute({
        sql: `INSERT INTO orders (id, uid, plan, amount, currency, receipt, status, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, 'created', ?, ?) ON CONFLICT (id) DO NOTHING`,
        args: [order.id, order.uid, order.plan, order.amount, order.currency, order.receipt, at, at],
      }));
      return result.rowsAffected === 1;
    },

    async findOrder(id) {
      return id ? orderIn(client, id) : null;
    },

    async grantOrder({ orderId, paymentId, signature, now, durationDays, event }): Promise<GrantResult> {
      return granting(inTransaction(client, async (tx): Promise<GrantResult> => {
        if (await seen(tx, event)) return { kind: 'duplicate_event' };
        const order = await orderIn(tx, orderId);
        if (!order) return { kind: 'no_order' };
        const user = await userIn(tx, order.uid);
        if (order.status === 'paid') {
          await remember(tx, event, now);
          return { kind: 'already_paid', user, order };
        }
        if (!user) return { kind: 'no_user', order };

        const at = now.toISOString();
        const granted = grantedUserRecord(user, order, { paymentId, signature, now, durationDays });
        await tx.execute({ sql: 'UPDATE users SET record = ? WHERE uid = ?', args: [JSON.stringify(granted), order.uid] });
        await tx.execute({
          sql: `UPDATE orders SET status = 'paid', payment_id = ?, signature = ?, failure_reason = NULL, updated_at = ?
                WHERE id = ? AND status <> 'paid'`,
          args: [paymentId, signature, at, order.id],
        });
        await remember(tx, event, now);
        const paid = await orderIn(tx, order.id);
        return { kind: 'granted', user: granted, order: paid! };
      }));
    },

    async failOrder({ orderId, paymentId, reason, now, event }): Promise<FailResult> {
      return inTransaction(client, async (tx) => {
        if (await seen(tx, event)) return { kind: 'duplicate_event' };
        const order = await orderIn(tx, orderId);
        if (!order) return { kind: 'no_order' };
        await remember(tx, event, now);
        if (order.status === 'paid') return { kind: 'already_paid', order };
        await tx.execute({
          sql: `UPDATE orders SET status = 'failed', payment_id = COALESCE(?, payment_id), failure_reason = ?, updated_at = ?
                WHERE id = ? AND status <> 'paid'`,
          args: [paymentId, reason, now.toISOString(), order.id],
        });
        return { kind: 'failed', order: (await orderIn(tx, order.id))! };
      });
    },

    async recordEvent({ id, type }, now) {
      const result = await withWriteLock(client, () => client.execute({
        sql: 'INSERT INTO payment_events (id, type, received_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
        args: [id, type, now.toISOString()],
      }));
      return result.rowsAffected === 1;
    },

    async listOrdersByUid(uid) {
      if (!uid) return [];
      const result = await client.execute({ sql: 'SELECT * FROM orders WHERE uid = ? ORDER BY created_at DESC, rowid DESC', args: [uid] });
      return result.rows.map(orderOf);
    },

    async countOrdersByStatus() {
      const counts: Record<OrderStatus, number> = { created: 0, paid: 0, failed: 0 };
      const result = await client.execute('SELECT status, COUNT(*) AS n FROM orders GROUP BY status');
      for (const row of result.rows) counts[String(row['status']) as OrderStatus] = Number(row['n']);
      return counts;
    },
  };
}
