/** GET /api/alerts/preview: the next daily update as the phone will show it (src/server/delivery/preview.ts). */
import { getPreview } from '../../../server/delivery/preview.ts';

export const GET = getPreview;
