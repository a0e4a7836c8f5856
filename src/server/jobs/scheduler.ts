/**
 * The in-server scheduler of the embedded default (croner: cron patterns with a time zone, no
 * dependencies, overlap protection): the hourly delivery job (daily updates, alert retries) at
 * the top of every hour in India, and once shortly after start so a run missed while the server
 * was down is made good. Running it on several instances is safe: the job sends each message
 * once through the Store's sent-log. Nothing starts it but the server entry (./atStart.ts), and
 * not there with JOBS_SCHEDULER=off: never Vitest, unless a test calls it.
 */
import { Cron } from 'croner';
import { BUSINESS_TIME_ZONE } from '../../lib/dates.ts';

export interface SchedulerOptions {
  /** One run of the hourly delivery job. */
  readonly run: () => Promise<unknown>;
  /** Cron pattern, minute precision (default: every hour on the hour, IST). */
  readonly pattern?: string;
  /** Delay of the catch-up run after start, ms (null: none). */
  readonly catchUpAfterMs?: number | null;
  readonly log?: Pick<Console, 'info' | 'error'>;
}

export const DAILY_UPDATE_PATTERN = '0 * * * *';

let job: Cron | null = null;
let catchUp: ReturnType<typeof setTimeout> | null = null;

export function startScheduler({ run, pattern = DAILY_UPDATE_PATTERN, catchUpAfterMs = 15_000, log = console }: SchedulerOptions): void {
  if (job) return;
  const once = async () => {
    try {
      await run();
    } catch (error) {
      log.error('[scheduler] the delivery job failed:', error);
    }
  };
  // protect: a run still going when the next is due is not started twice in this process.
  job = new Cron(pattern, { timezone: BUSINESS_TIME_ZONE, protect: true, name: 'daily-update' }, once);
  if (catchUpAfterMs !== null) {
    catchUp = setTimeout(() => void once(), catchUpAfterMs);
    catchUp.unref();
  }
  log.info(`[scheduler] daily update: "${pattern}" in ${BUSINESS_TIME_ZONE}; next run ${job.nextRun()?.toISOString() ?? 'never'}`);
}

export function stopScheduler(): void {
  job?.stop();
  job = null;
  if (catchUp) clearTimeout(catchUp);
  catchUp = null;
}

/** Whether the scheduler runs in this process (tests and the health view). */
export const schedulerRunning = (): boolean => job !== null;
