/** POST /api/alerts/whatsapp `{number, consent: true}`: sends a verification code over WhatsApp. */
export { askWhatsAppCode as POST } from '../../../../server/delivery/endpoints.ts';
