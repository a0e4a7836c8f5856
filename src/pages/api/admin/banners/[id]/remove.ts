/** POST /api/admin/banners/{id}/remove `{}`: removes the banner and its uploaded image. Audited. */
import { removeBanner } from '../../../../../server/admin/bannerChanges.ts';

export const POST = removeBanner;
