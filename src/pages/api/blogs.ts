/** GET /api/blogs?type&year&month → {data:[…]} oldest first (DESIGN §6): src/server/api/blogs.ts, one row of src/server/api/routes.ts. */
import { astroEndpoint } from '../../server/http/astroEndpoint.ts';

export const GET = astroEndpoint('/api/blogs');
