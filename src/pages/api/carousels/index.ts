/** GET /api/carousels/: src/server/api/carousels.ts, one row of src/server/api/routes.ts. */
import { astroEndpoint } from '../../../server/http/astroEndpoint.ts';

export const GET = astroEndpoint('/api/carousels');
