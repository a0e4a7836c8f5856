/** POST /api/jobs/daily-update with `Authorization: Bearer $JOBS_SECRET` (404 without JOBS_SECRET). */
import { dailyUpdateJob } from '../../../server/delivery/routes.ts';

export const POST = dailyUpdateJob;
