/** GET /api/citywise/{city}: src/server/api/citywise.ts, one row of src/server/api/routes.ts. */
import { astroEndpoint } from '../../../server/http/astroEndpoint.ts';

export const GET = astroEndpoint('/api/citywise/[city]');
