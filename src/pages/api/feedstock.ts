/** GET /api/feedstock?name&country&type[&year]: src/server/api/feedstock.ts, one row of src/server/api/routes.ts. */
import { astroEndpoint } from '../../server/http/astroEndpoint.ts';

export const GET = astroEndpoint('/api/feedstock');
