/** GET /api/internationaloffers?country&month&year: src/server/api/internationaloffers.ts, one row of src/server/api/routes.ts. */
import { astroEndpoint } from '../../server/http/astroEndpoint.ts';

export const GET = astroEndpoint('/api/internationaloffers');
