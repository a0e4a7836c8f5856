/** POST /api/admin/banners/{id}/move `{direction: 'up'|'down'}`. Audited. */
import { moveBanner } from '../../../../../server/admin/bannerChanges.ts';

export const POST = moveBanner;
