/** GET /api/alerts/price: a price's latest value, beside an alert's threshold (src/server/delivery/preview.ts). */
export { alertPrice as GET } from '../../../server/delivery/endpoints.ts';
