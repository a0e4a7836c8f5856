/** What the admin dashboard shows, gathered from the store in one place. */
import { freshnessReport, type Freshness } from '../../lib/admin/freshness.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { allSeries } from '../../lib/seriesCatalog.ts';
import { summarizeUsers, type UserSummary } from '../../lib/admin/summary.ts';
import { plans } from '../../lib/plans.ts';
import type { AuditEntry } from '../store/audit.ts';
import type { OrderStatus } from '../store/payments.ts';
import type { Store } from '../store/index.ts';

export interface Dashboard {
  readonly users: UserSummary;
  readonly orders: Readonly<Record<OrderStatus, number>>;
  readonly latest: readonly AuditEntry[];
  /** Every catalog series' latest date, stale first (src/lib/admin/freshness.ts). */
  readonly freshness: readonly Freshness[];
}

export async function dashboard(store: Store, now: Date, latest = 10): Promise<Dashboard> {
  const [facts, orders, audit, lastDates] = await Promise.all([
    store.listUserFacts(),
    store.countOrdersByStatus(),
    store.listAudit({ pageSize: latest }),
    store.latestDates(),
  ]);
  return {
    users: summarizeUsers(facts, now, plans.map((p) => p.id)),
    orders,
    latest: audit.entries,
    freshness: freshnessReport(allSeries, lastDates, isoDateOf(now)),
  };
}
