/**
 * Imported by the server entry once the process starts (astro.config.mjs, `jobsAtServerStart`):
 * starts the in-server scheduler with this server's delivery services. (A graceful shutdown may
 * call stopScheduler(); without one the process's exit ends it.)
 */
import { runDailyUpdate } from '../delivery/dailyUpdate.ts';
import { deliveryDeps } from '../delivery/index.ts';
import { startScheduler } from './scheduler.ts';

startScheduler({ runDailyUpdate: async () => runDailyUpdate(await deliveryDeps()) });
