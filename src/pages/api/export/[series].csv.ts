/** GET /api/export/{seriesId}.csv: src/server/api/exportCsv.ts, one row of src/server/api/routes.ts. */
import { astroEndpoint } from '../../../server/http/astroEndpoint.ts';

export const GET = astroEndpoint('/api/export/[series].csv');
