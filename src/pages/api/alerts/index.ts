/** POST /api/alerts `{series, kind: above|below|move, value, channels}` → 201: a price alert (Premium and up). */
import { postAlert } from '../../../server/delivery/http.ts';

export const POST = postAlert;
