/** GET/PUT /api/alerts/settings: the daily update's prices, channels and hour (IST). */
import { getSettings, putSettings } from '../../../server/delivery/http.ts';

export const GET = getSettings;
export const PUT = putSettings;
