/**
 * Price delivery's endpoints: the `/alerts` settings and alerts and WhatsApp number verification
 * (signed in; what they allow follows the plan, ./http.ts), the one-click unsubscribe (public: the
 * signed token is its authority), Meta's webhook (public: its signature is), the daily-update job
 * (public: its bearer secret is) and the sandbox phone (administrators, loopback sandbox only).
 */
import { config } from '../config/index.ts';
import { endpoint } from '../edge/endpoint.ts';
import { jobEndpoint } from '../jobs/endpoint.ts';
import { deleteAlert, getSettings, getUnsubscribe, postAlert, postCode, postNumber, postUnsubscribe, putSettings } from './http.ts';
import { deliveryDeps, jobsSecret } from './index.ts';
import { runDeliveryJob } from './job.ts';
import { postRevisionAlert } from './revisionAlertHttp.ts';
import { getPreview, getPrice } from './preview.ts';
import { receiveWebhook, sandboxSendTo, verifyWebhook } from './routes.ts';

/** GET /api/alerts/settings: the daily update's prices, channels and hour (IST). */
export const alertSettings = endpoint('signedIn', getSettings);
/** PUT /api/alerts/settings. */
export const saveAlertSettings = endpoint('signedIn', putSettings);
/** POST /api/alerts `{series, kind: above|below|move, value, channels}` → 201: a price alert (Premium and up). */
export const createAlert = endpoint('signedIn', postAlert);
/** POST /api/alerts/revisions `{product, producer?, channels}` → 201: a producer revision alert (the plans with alerts). */
export const createRevisionAlert = endpoint('signedIn', postRevisionAlert);
/** DELETE /api/alerts/{id}: removes one of the user's alerts. */
export const removeAlert = endpoint('signedIn', deleteAlert);
/** POST /api/alerts/whatsapp `{number, consent: true}`: sends a verification code over WhatsApp. */
export const askWhatsAppCode = endpoint('signedIn', postNumber);
/** POST /api/alerts/whatsapp/verify `{code}`: the number is verified and opted in. */
export const verifyWhatsAppCode = endpoint('signedIn', postCode);

/** GET /api/alerts/preview?series=a,b&hour=9[&language=hi]: the next daily update as the phone will show it. */
export const dailyUpdatePreview = endpoint('signedIn', getPreview);
/** GET /api/alerts/price?series=id: a price's latest value, beside an alert's threshold. */
export const alertPrice = endpoint('signedIn', getPrice);

/** GET /api/unsubscribe?token=…: leads to the page that asks. */
export const unsubscribeLink = endpoint('public', getUnsubscribe);
/** POST /api/unsubscribe?token=…: RFC 8058 one-click unsubscribe. */
export const unsubscribe = endpoint('public', postUnsubscribe);

/** GET /api/whatsapp/webhook: Meta's subscription check (hub.challenge). */
export const whatsappWebhookCheck = endpoint('public', verifyWebhook);
/** POST /api/whatsapp/webhook: signed messages from Meta. */
export const whatsappWebhook = endpoint('public', receiveWebhook);

/** POST /api/jobs/daily-update with `Authorization: Bearer $JOBS_SECRET` (404 without JOBS_SECRET): one run of the hourly delivery job. */
export const dailyUpdateJob = jobEndpoint(jobsSecret, async () => runDeliveryJob(await deliveryDeps()));

/** POST /api/admin/whatsapp/send `{from, text}`: the sandbox phone writes to the site as Meta would, at the server's own loopback address. */
export const sandboxPhoneSend = endpoint('admin', sandboxSendTo(() => config.loopbackOrigin));
