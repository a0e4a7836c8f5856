/**
 * Imported by the server entry once the process starts (astro.config.mjs, `jobsAtServerStart`):
 * starts the in-server scheduler with this server's delivery services, unless JOBS_SCHEDULER=off
 * (an external scheduler calls POST /api/jobs/daily-update; extra instances; test servers whose
 * specs run the job themselves). A graceful shutdown may call stopScheduler().
 * The same hourly run scores the forecasts whose horizon has ended (src/server/forecasts/records.ts).
 */
import { deliveryDeps, inServerScheduler } from '../delivery/index.ts';
import { runDeliveryJob } from '../delivery/job.ts';
import { forecastNow } from '../forecasts/clock.ts';
import { scoreEndedForecasts } from '../forecasts/records.ts';
import { forecastsSeeded, store } from '../runtime.ts';
import { startScheduler } from './scheduler.ts';

async function scoreForecasts(): Promise<void> {
  try {
    await forecastsSeeded();
    await scoreEndedForecasts(await store(), forecastNow());
  } catch (error) {
    console.error('[scheduler] scoring forecasts failed:', error);
  }
}

if (inServerScheduler) {
  startScheduler({
    run: async () => {
      try {
        return await runDeliveryJob(await deliveryDeps());
      } finally {
        await scoreForecasts();
      }
    },
  });
} else console.info('[scheduler] off (JOBS_SCHEDULER=off): the delivery job runs only when POST /api/jobs/daily-update is called');
