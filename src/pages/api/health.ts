/** GET /api/health: 200 while this instance can read its store, 503 when it cannot; each dependency ok or degraded. */
export { health as GET } from '../../server/ops/endpoints.ts';
