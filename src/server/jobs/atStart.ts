/**
 * Imported by the server entry once the process starts (astro.config.mjs, `jobsAtServerStart`):
 * starts the in-server scheduler with this server's delivery services, unless JOBS_SCHEDULER=off
 * (an external scheduler calls POST /api/jobs/daily-update; extra instances; test servers whose
 * specs run the job themselves). A graceful shutdown may call stopScheduler().
 */
import { deliveryDeps, inServerScheduler } from '../delivery/index.ts';
import { runDeliveryJob } from '../delivery/job.ts';
import { startScheduler } from './scheduler.ts';

if (inServerScheduler) startScheduler({ run: async () => runDeliveryJob(await deliveryDeps()) });
else console.info('[scheduler] off (JOBS_SCHEDULER=off): the delivery job runs only when POST /api/jobs/daily-update is called');
