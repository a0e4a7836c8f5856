/** POST /api/admin/offers/{country}/set `{date, data}`: a country's offers of one date. Audited. */
import { setOffers } from '../../../../../server/admin/marketChanges.ts';

export const POST = setOffers;
