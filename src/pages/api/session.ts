/** GET /api/session: the visitor's record and what it may see (503 when the session cannot be checked). */
export { currentSession as GET } from '../../server/auth/endpoints.ts';
