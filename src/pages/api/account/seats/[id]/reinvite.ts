/** POST /api/account/seats/{id}/reinvite `{}`: a new invitation link for a pending seat. */
export { reinviteSeat as POST } from '../../../../../server/account/endpoints.ts';
