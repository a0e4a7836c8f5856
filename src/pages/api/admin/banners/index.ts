/** POST /api/admin/banners (multipart: image, alt, title, subtitle, href): adds a carousel banner, last. Audited. */
import { addBanner } from '../../../../server/admin/bannerChanges.ts';

export const POST = addBanner;
