/** GET /api/carousels/images/{file}: an uploaded banner image (public). */
import { bannerImage } from '../../../../server/admin/bannerChanges.ts';

export const GET = bannerImage;
