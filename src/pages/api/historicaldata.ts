/** GET /api/historicaldata?polymer&year: src/server/api/historicaldata.ts, one row of src/server/api/routes.ts. */
import { astroEndpoint } from '../../server/http/astroEndpoint.ts';

export const GET = astroEndpoint('/api/historicaldata');
