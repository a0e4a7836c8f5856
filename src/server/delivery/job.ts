/**
 * The hourly delivery job, run by the in-server scheduler or by `POST /api/jobs/daily-update`
 * (an external scheduler): the daily updates that are due, the weekly forecast digests (Mondays),
 * the retry of alert messages that did not go, the revision alerts not recorded yet, and the
 * pruning of the sent-log (older than DELIVERY_LOG_RETENTION_MS). Each part is
 * safe to run any number of times, on any number of instances.
 */
import { DELIVERY_LOG_RETENTION_MS } from '../store/delivery.ts';
import { evaluateRevisionAlerts, retryAlerts, type AlertRetryReport } from './alerts.ts';
import { runDailyUpdate, type DailyRunReport } from './dailyUpdate.ts';
import type { DeliveryDeps } from './dispatch.ts';
import { runForecastDigest, type DigestRunReport } from './forecastDigest.ts';

export interface DeliveryJobReport extends DailyRunReport {
  /** Revision-alert messages sent by this run (firings a write's own evaluation did not record: its process died). */
  readonly revisionAlerts: number;
  /** Alert messages retried by this run. */
  readonly alerts: AlertRetryReport;
  /** The weekly forecast digest (Mondays). */
  readonly digest: DigestRunReport;
  /** Sent-log records pruned. */
  readonly pruned: number;
}

export async function runDeliveryJob(deps: DeliveryDeps): Promise<DeliveryJobReport> {
  const daily = await runDailyUpdate(deps);
  const revisionAlerts = await evaluateRevisionAlerts(deps);
  const alerts = await retryAlerts(deps);
  const pruned = await deps.store.pruneDeliveries(new Date(deps.now().getTime() - DELIVERY_LOG_RETENTION_MS));
  if (alerts.sent + alerts.failed + alerts.dropped + pruned > 0) {
    (deps.log ?? console).info(`[delivery] alert retries: ${alerts.sent} sent, ${alerts.failed} failed, ${alerts.dropped} given up; ${pruned} old log records pruned`);
  }
  // Last, and on its own: a weekly message that cannot be made (its forecasts unreadable) must not
  // hold up the daily update, the alert retries or the pruning; the next hourly run tries again.
  const digest = await runForecastDigest(deps).catch((error: unknown): DigestRunReport => {
    (deps.log ?? console).error('[delivery] forecast digest failed:', error instanceof Error ? error.message : error);
    return { due: 0, sent: 0, skipped: 0, failed: 1 };
  });
  return { ...daily, revisionAlerts, digest, alerts, pruned };
}
