/** DELETE /api/alerts/{id}: removes one of the user's alerts. */
export { removeAlert as DELETE } from '../../../server/delivery/endpoints.ts';
