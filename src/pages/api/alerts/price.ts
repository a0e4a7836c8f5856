/** GET /api/alerts/price: a price's latest value and unit, for the alert form (src/server/delivery/preview.ts). */
import { getPrice } from '../../../server/delivery/preview.ts';

export const GET = getPrice;
