/** DELETE /api/alerts/{id}: removes one of the user's alerts. */
import { deleteAlert } from '../../../server/delivery/http.ts';

export const DELETE = deleteAlert;
