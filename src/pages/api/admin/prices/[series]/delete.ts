/** POST /api/admin/prices/{series}/delete `{date, expected}`: deletes one point (409 when it changed meanwhile). Audited. */
import { deletePoint } from '../../../../../server/admin/priceChanges.ts';

export const POST = deletePoint;
