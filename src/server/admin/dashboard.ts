/** What the admin dashboard shows, gathered from the store in one place. */
import { summarizeUsers, type UserSummary } from '../../lib/admin/summary.ts';
import { plans } from '../../lib/plans.ts';
import type { AuditEntry } from '../store/audit.ts';
import type { OrderStatus } from '../store/payments.ts';
import type { Store } from '../store/index.ts';

export interface Dashboard {
  readonly users: UserSummary;
  readonly orders: Readonly<Record<OrderStatus, number>>;
  readonly latest: readonly AuditEntry[];
}

export async function dashboard(store: Store, now: Date, latest = 10): Promise<Dashboard> {
  const [facts, orders, audit] = await Promise.all([store.listUserFacts(), store.countOrdersByStatus(), store.listAudit({ pageSize: latest })]);
  return {
    users: summarizeUsers(facts, now, plans.map((p) => p.id)),
    orders,
    latest: audit.entries,
  };
}
