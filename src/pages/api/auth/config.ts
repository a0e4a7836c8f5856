/** GET /api/auth/config: the Firebase web config for the sign-in page (public; read at run time). */
export { webConfig as GET } from '../../../server/auth/endpoints.ts';
