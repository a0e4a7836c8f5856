/** POST /api/admin/prices/{series}/set `{date, value, expected?}`: adds or changes one point (409 when it changed meanwhile). Audited. */
import { setPoint } from '../../../../../server/admin/priceChanges.ts';

export const POST = setPoint;
