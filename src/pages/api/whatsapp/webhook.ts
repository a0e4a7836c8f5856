/** The WhatsApp Cloud API webhook: GET subscribes (hub.challenge), POST carries signed messages. */
import { receiveWebhook, verifyWebhook } from '../../../server/delivery/routes.ts';

export const GET = verifyWebhook;
export const POST = receiveWebhook;
