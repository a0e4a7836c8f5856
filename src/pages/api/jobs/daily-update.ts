/** POST /api/jobs/daily-update with `Authorization: Bearer $JOBS_SECRET` (404 without JOBS_SECRET). */
export { dailyUpdateJob as POST } from '../../../server/delivery/endpoints.ts';
