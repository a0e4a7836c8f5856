/** GET /api/alerts/preview: the next daily update as the phone will show it (src/server/delivery/preview.ts). */
export { dailyUpdatePreview as GET } from '../../../server/delivery/endpoints.ts';
