/** GET /api/series?ids&from&to&unit[&view&ma]: src/server/api/series.ts, one row of src/server/api/routes.ts. */
import { astroEndpoint } from '../../../server/http/astroEndpoint.ts';

export const GET = astroEndpoint('/api/series');
