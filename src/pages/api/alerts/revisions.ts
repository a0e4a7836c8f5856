/** POST /api/alerts/revisions `{product, producer?, channels}` → 201: a producer revision alert (the plans with alerts). */
export { createRevisionAlert as POST } from '../../../server/delivery/endpoints.ts';
