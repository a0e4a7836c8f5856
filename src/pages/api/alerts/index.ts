/** POST /api/alerts `{series, kind: above|below|move, value, channels}` → 201: a price alert (Premium and up). */
export { createAlert as POST } from '../../../server/delivery/endpoints.ts';
