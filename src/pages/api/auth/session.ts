/** POST /api/auth/session `{idToken}`: sign-in (a session cookie), and a welcome mail for a new account. */
export { signIn as POST } from '../../../server/auth/endpoints.ts';
