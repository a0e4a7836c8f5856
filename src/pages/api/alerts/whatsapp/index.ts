/** POST /api/alerts/whatsapp `{number, consent: true}`: sends a verification code over WhatsApp. */
import { postNumber } from '../../../../server/delivery/http.ts';

export const POST = postNumber;
