/** GET/PUT /api/alerts/settings: the daily update's prices, channels and hour (IST). */
export { alertSettings as GET, saveAlertSettings as PUT } from '../../../server/delivery/endpoints.ts';
