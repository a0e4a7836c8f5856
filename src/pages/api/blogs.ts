/** GET /api/blogs?type&year&month → {data:[…]} oldest first: a read of the data API (both lanes). */
export { blogs as GET } from '../../server/api/endpoints.ts';
