/** POST /api/alerts/whatsapp/verify `{code}`: the number is verified and opted in. */
import { postCode } from '../../../../server/delivery/http.ts';

export const POST = postCode;
