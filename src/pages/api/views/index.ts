/** GET /api/views → the user's saved comparison views; POST /api/views {name, query} → save (src/server/api/views.ts). */
export { listViews as GET, saveView as POST } from '../../../server/api/endpoints.ts';
