/** POST /api/account/seats/accept `{token}`: the invited colleague takes the seat. */
export { acceptSeat as POST } from '../../../../server/account/endpoints.ts';
