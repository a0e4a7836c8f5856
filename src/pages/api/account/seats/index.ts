/** GET /api/account/seats: the owner's team. POST `{email}`: invites a colleague (docs/payments.md, "Team seats"). */
export { listSeats as GET, inviteSeat as POST } from '../../../../server/account/endpoints.ts';
