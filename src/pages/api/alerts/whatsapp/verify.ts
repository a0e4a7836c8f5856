/** POST /api/alerts/whatsapp/verify `{code}`: the number is verified and opted in. */
export { verifyWhatsAppCode as POST } from '../../../../server/delivery/endpoints.ts';
