/** POST /api/account/seats/{id}/remove `{}`: removes a colleague or revokes an invitation. */
export { removeSeat as POST } from '../../../../../server/account/endpoints.ts';
