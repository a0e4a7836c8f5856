/** The WhatsApp Cloud API webhook: GET subscribes (hub.challenge), POST carries signed messages. */
export { whatsappWebhookCheck as GET, whatsappWebhook as POST } from '../../../server/delivery/endpoints.ts';
