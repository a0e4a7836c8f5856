/** POST /api/admin/citywise/{city}/set `{date, grade, price|null, expected?}`: one row of a city's sheet (409 when it changed meanwhile). Audited. */
import { setCityPrice } from '../../../../../server/admin/marketChanges.ts';

export const POST = setCityPrice;
