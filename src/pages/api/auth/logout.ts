/** POST /api/auth/logout: sign-out everywhere; clears the cookie and the browser's HTTP cache of the site. */
export { signOut as POST } from '../../../server/auth/endpoints.ts';
