/** POST /api/admin/prices/import[?dryRun=1] (text/csv): the bulk import, all or nothing. Audited. */
import { importPrices } from '../../../../server/admin/priceChanges.ts';

export const POST = importPrices;
